"""Stage II retention: which requirements passed only after their ticket was read (pure over
session records), and the digest of the sources that says whether a session changed them."""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path
from typing import Any

from specsnap.rundir import RecordedSession, recorded_session
from specsnap.scorecard.model import Session
from specsnap.sessions.sources import sources_digest
from specsnap.stage2.perturbations import recovered_requirements
from tests.support.scorecards import fixture_document


def a_record(index: int) -> dict[str, Any]:
    record: dict[str, Any] = fixture_document("tier-4-seed-1")["sessions"][0]
    return {**record, "index": index}


def record(index: int, read: list[str], changed: bool) -> RecordedSession:
    session = Session.from_record(a_record(index))
    return RecordedSession(replace(session, index=index), frozenset(read), changed)


def test_a_ticket_read_then_code_written_is_recovered() -> None:
    records = [record(1, [], True), record(2, ["REP-1"], True)]
    assert recovered_requirements(records) == {"REP-1"}


def test_a_ticket_read_after_the_last_change_is_not() -> None:
    """Read in session 3 of 3, which changed nothing: the code was written before the read."""
    records = [record(1, [], True), record(2, [], True), record(3, ["REP-1"], False)]
    assert recovered_requirements(records) == frozenset()


def test_a_change_in_a_later_session_counts_after_the_read() -> None:
    records = [record(1, [], True), record(2, ["UNIT-1"], False), record(3, [], True)]
    assert recovered_requirements(records) == {"UNIT-1"}


def test_reads_in_the_first_session_never_count() -> None:
    records = [record(1, ["UNIT-1", "REP-1"], True), record(2, [], True)]
    assert recovered_requirements(records) == frozenset()


def test_a_session_that_does_not_say_counts_as_having_changed_the_sources() -> None:
    tracker = {"consultations": 1, "bytes_served": 9, "chars_served": 9, "requests": []}
    silent = {**a_record(2), "tracker": {**tracker, "tickets_read": ["REP-1"]}}
    said = {**silent, "sources": {"at_start": "a", "at_end": "a"}}
    assert recorded_session(silent, "session.json").sources_changed
    assert not recorded_session(said, "session.json").sources_changed
    silent_session = recorded_session(silent, "session.json")
    assert recovered_requirements([record(1, [], True), silent_session]) == {"REP-1"}


def test_the_sources_digest_sees_python_files_only_and_never_follows_links(
    tmp_path: Path,
) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "a.py").write_text("x = 1\n")
    (tmp_path / "NOTES.md").write_text("notes")
    first = sources_digest(tmp_path)
    (tmp_path / "NOTES.md").write_text("other notes")
    (tmp_path / "pkg" / "__pycache__").mkdir()
    (tmp_path / "pkg" / "__pycache__" / "a.py").write_text("cache")
    (tmp_path / ".git").mkdir()
    (tmp_path / ".git" / "hook.py").write_text("git")
    assert sources_digest(tmp_path) == first
    (tmp_path / "pkg" / "a.py").write_text("x = 2\n")
    assert sources_digest(tmp_path) != first
    os.mkfifo(tmp_path / "pkg" / "pipe.py")  # not a file: skipped, never opened
    (tmp_path / "pkg" / "link.py").symlink_to("/etc/passwd")
    with_odd_files = sources_digest(tmp_path)
    (tmp_path / "pkg" / "link.py").unlink()
    (tmp_path / "pkg" / "link.py").symlink_to("/etc/hostname")
    assert sources_digest(tmp_path) != with_odd_files  # a link counts by its target text
