"""The service answers at once and does the work after; a full queue says busy."""

from __future__ import annotations

import io
import json
import threading
import time
from datetime import UTC, datetime

from specsnap.bot.heads import HeadLog
from specsnap.bot.replays import ReplayGuard
from specsnap.bot.service import BotService
from specsnap.bot.webhook import Delivery, make_app, signature
from tests.support.bot_events import detached_comment_event, detached_pull_request_event

STAMP = "2026-05-01T12:00:00Z"


def comment(delivery_id: str, action: str = "created") -> Delivery:
    payload = detached_comment_event("o/r", 7, "/specsnap run tier=2", STAMP, action=action)
    return Delivery("issue_comment", delivery_id, payload)


def wait_for(condition: object) -> None:
    deadline = time.monotonic() + 10
    while not condition():  # type: ignore[operator]
        assert time.monotonic() < deadline
        time.sleep(0.01)


def test_a_comment_is_answered_before_the_slow_work_is_done() -> None:
    release = threading.Event()
    done: list[str] = []

    def work(delivery: Delivery) -> str:
        release.wait(10)
        done.append(delivery.delivery_id)
        return "started"

    log = io.StringIO()
    service = BotService(work, HeadLog(), workers=1, log=log)
    service.start()
    try:
        assert service.receive(comment("d1")) == (202, "queued")
        assert service.receive(comment("d2")) == (202, "queued")
        assert done == [] and service.health().queued >= 1  # answered, nothing done yet
        release.set()
        wait_for(lambda: service.health().handled == 2)
        assert done == ["d1", "d2"]
    finally:
        service.stop(timeout=5)
    assert "delivery d1: started" in log.getvalue()


def test_a_failing_delivery_is_counted_and_the_worker_goes_on() -> None:
    def work(delivery: Delivery) -> str:
        if delivery.delivery_id == "bad":
            raise RuntimeError("the API fell over")
        return "started"

    log = io.StringIO()
    service = BotService(work, HeadLog(), workers=1, log=log)
    service.start()
    try:
        service.receive(comment("bad"))
        service.receive(comment("good"))
        wait_for(lambda: service.health().handled == 1)
        health = service.health()
        assert health.failed == 1 and health.ok and health.as_dict()["status"] == "ok"
    finally:
        service.stop(timeout=5)
    assert "delivery bad: failed: RuntimeError: the API fell over" in log.getvalue()


def test_a_full_queue_answers_busy_and_dead_workers_are_unhealthy() -> None:
    service = BotService(lambda d: "started", HeadLog(), workers=1, capacity=1)
    assert service.receive(comment("d1")) == (202, "queued")  # no worker started yet
    status, text = service.receive(comment("d2"))
    assert status == 503 and "redeliver" in text
    assert not service.health().ok and service.health().as_dict()["status"] == "unhealthy"


def test_heads_are_recorded_on_receipt_and_other_events_dropped() -> None:
    service = BotService(lambda d: "started", HeadLog(), workers=1)
    synchronize = detached_pull_request_event("o/r", 7, "a" * 40, STAMP)
    assert service.receive(Delivery("pull_request", "p", synchronize)) == (202, "head recorded")
    assert service.heads.head_at("o/r", 7, datetime(2026, 5, 1, 12, 0, tzinfo=UTC)) == "a" * 40
    assert service.receive(Delivery("push", "x", {})) == (202, "ignored push")
    assert service.receive(Delivery("ping", "y", {})) == (200, "pong")
    edited = comment("e", action="edited").payload
    assert service.receive(Delivery("issue_comment", "e", edited)) == (202, "ignored issue_comment")


SECRET = b"webhook-secret"


def signed_post(app, payload: dict, delivery_id: str) -> str:
    """POST `payload` to the WSGI `app` as GitHub would; the status line it answers."""
    body = json.dumps(payload).encode()
    environ = {
        "REQUEST_METHOD": "POST",
        "CONTENT_LENGTH": str(len(body)),
        "wsgi.input": io.BytesIO(body),
        "HTTP_X_HUB_SIGNATURE_256": signature(SECRET, body),
        "HTTP_X_GITHUB_EVENT": "issue_comment",
        "HTTP_X_GITHUB_DELIVERY": delivery_id,
    }
    seen: list[str] = []
    b"".join(app(environ, lambda status, _headers: seen.append(status)))
    return seen[0]


def fresh_comment(comment_id: int) -> dict:
    stamp = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    payload = dict(comment("unused").payload)
    payload["comment"] = {**payload["comment"], "id": comment_id, "updated_at": stamp}
    return payload


def receiver(work, **options) -> tuple[BotService, object]:
    guard = ReplayGuard()
    service = BotService(work, HeadLog(), guard=guard, **options)
    return service, make_app(SECRET, service.receive, guard=guard)


def test_a_delivery_answered_busy_is_processed_when_redelivered_then_refused() -> None:
    """Today the id was recorded before the answer: *Redeliver* after the 503 got 409."""
    done: list[str] = []

    def work(delivery: Delivery) -> str:
        done.append(delivery.delivery_id)
        return "started"

    service, app = receiver(work, workers=1, capacity=1)
    first, second = fresh_comment(1), fresh_comment(2)  # a redelivery re-sends the same body
    assert signed_post(app, first, "d1").startswith("202")  # no worker yet: it waits
    assert signed_post(app, second, "d2").startswith("503")
    service.start()
    try:
        wait_for(lambda: done == ["d1"])
        assert signed_post(app, second, "d2").startswith("202")  # *Redeliver*
        wait_for(lambda: service.health().handled == 2)
        assert signed_post(app, second, "d2").startswith("409")
    finally:
        service.stop(timeout=5)
    assert done == ["d1", "d2"]


def test_a_delivery_whose_worker_failed_is_processed_once_when_redelivered() -> None:
    """Today a redelivery after a failed worker got 409, though docs/bot.md says redeliver."""
    attempts: list[str] = []
    release = threading.Event()

    def work(delivery: Delivery) -> str:
        attempts.append(delivery.delivery_id)
        if len(attempts) == 1:
            raise RuntimeError("the API fell over")
        release.wait(10)
        return "started"

    service, app = receiver(work, workers=1, log=io.StringIO())
    body = fresh_comment(1)  # a redelivery or a replay re-sends the same signed body
    service.start()
    try:
        assert signed_post(app, body, "d1").startswith("202")
        wait_for(lambda: service.health().failed == 1)
        assert signed_post(app, body, "d1").startswith("202")
        wait_for(lambda: len(attempts) == 2)
        assert signed_post(app, body, "d1").startswith("409")  # still in flight
        release.set()
        wait_for(lambda: service.health().handled == 1)
        assert signed_post(app, body, "d1").startswith("409")  # done
        assert signed_post(app, body, "d9").startswith("409")  # same comment
    finally:
        service.stop(timeout=5)
    assert attempts == ["d1", "d1"]


def test_deliveries_answered_at_once_are_done() -> None:
    _, app = receiver(lambda d: "started", workers=1)
    edited = {**fresh_comment(1), "action": "edited"}
    assert signed_post(app, edited, "e1").startswith("202")
    assert signed_post(app, edited, "e1").startswith("409")
