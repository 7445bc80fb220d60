"""Which commit a comment is about: the record of heads from `pull_request` deliveries."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from specsnap.bot.heads import HeadLog, HeadMoved, pin_head
from tests.support.bot_events import detached, detached_pull_request_event, pull_request_event

T0 = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)
A, B, NOW = "a" * 40, "b" * 40, "c" * 40


def delivery(head: str, at: datetime, action: str = "synchronize", repo: str = "o/r") -> dict:
    """A `pull_request` delivery: pull request 7's head became `head` at `at`."""
    stamp = at.strftime("%Y-%m-%dT%H:%M:%SZ")
    return detached_pull_request_event(repo, 7, head, stamp, action)


def current() -> str:
    return NOW


def test_the_head_at_a_time_is_the_last_one_set_before_it() -> None:
    log = HeadLog()
    assert log.record(delivery(B, T0 + timedelta(minutes=5)))  # arrives out of order
    assert log.record(delivery(A, T0, action="opened"))
    assert log.head_at("o/r", 7, T0 + timedelta(minutes=1)) == A
    assert log.head_at("o/r", 7, T0 + timedelta(minutes=5)) == B
    assert log.head_at("o/r", 7, T0 - timedelta(seconds=1)) is None
    assert log.head_at("o/other", 7, T0) is None
    assert pin_head(log, "o/r", 7, T0 + timedelta(minutes=1), current) == A


def test_deliveries_that_set_no_head_are_not_recorded() -> None:
    log = HeadLog()
    assert not log.record(delivery(A, T0, action="closed"))
    assert not log.record({"action": "synchronize", "pull_request": {}})
    assert log.head_at("o/r", 7, T0 + timedelta(days=1)) is None


def test_without_a_record_the_current_head_is_taken_unless_it_moved_after_the_comment() -> None:
    log = HeadLog()
    assert pin_head(log, "o/r", 7, T0, current) == NOW
    assert pin_head(log, "o/r", 7, None, current) == NOW  # a payload without a time
    log.record(delivery(B, T0 + timedelta(seconds=30)))
    with pytest.raises(HeadMoved) as moved:
        pin_head(log, "o/r", 7, T0, current)
    assert moved.value.now == NOW and "after the command" in str(moved.value)


def test_the_record_stays_bounded() -> None:
    log = HeadLog()
    with detached("o/r", 7) as github:  # one server for the 30 deliveries
        for n in range(30):
            at = (T0 + timedelta(seconds=n)).strftime("%Y-%m-%dT%H:%M:%SZ")
            log.record(pull_request_event(github, "o/r", 7, f"{n:040x}", at))
    assert log.head_at("o/r", 7, T0 + timedelta(seconds=9)) is None  # the oldest forgotten
    assert log.head_at("o/r", 7, T0 + timedelta(minutes=1)) == f"{29:040x}"
