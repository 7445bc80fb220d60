from __future__ import annotations

import io
import json
from datetime import UTC, datetime, timedelta

import pytest

from specsnap.bot.webhook import (
    Rejected,
    ReplayGuard,
    accept,
    make_app,
    signature,
    verify_signature,
)
from tests.support.bot_events import detached_comment_event

# GitHub's published test values ("Validating webhook deliveries" → "Testing the webhook payload
# validation").
DOC_SECRET = b"It's a Secret to Everybody"
DOC_PAYLOAD = b"Hello, World!"
DOC_SIGNATURE = "sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17"

SECRET = b"webhook-secret"
NOW = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)


def test_githubs_published_test_vector() -> None:
    assert signature(DOC_SECRET, DOC_PAYLOAD) == DOC_SIGNATURE
    assert verify_signature(DOC_SECRET, DOC_PAYLOAD, DOC_SIGNATURE)


@pytest.mark.parametrize(
    "header",
    [
        None,
        "",
        "sha256=",
        DOC_SIGNATURE.replace("757", "758"),
        DOC_SIGNATURE.removeprefix("sha256="),
        "sha1=" + DOC_SIGNATURE[7:],
    ],
)
def test_anything_else_fails_verification(header: str | None) -> None:
    assert not verify_signature(DOC_SECRET, DOC_PAYLOAD, header)
    assert not verify_signature(DOC_SECRET, DOC_PAYLOAD + b" ", DOC_SIGNATURE)
    assert not verify_signature(b"", DOC_PAYLOAD, DOC_SIGNATURE)


def comment_payload(updated: datetime) -> bytes:
    """The signed body of a delivery of comment 1, written at `updated`."""
    stamp = updated.strftime("%Y-%m-%dT%H:%M:%SZ")
    return json.dumps(detached_comment_event("o/r", 7, "/specsnap run", stamp)).encode()


def headers(body: bytes, delivery: str = "d-1", event: str = "issue_comment") -> dict[str, str]:
    return {
        "x-hub-signature-256": signature(SECRET, body),
        "x-github-event": event,
        "x-github-delivery": delivery,
    }


def test_a_signed_fresh_delivery_is_accepted() -> None:
    body = comment_payload(NOW - timedelta(seconds=30))
    delivery = accept(headers(body), body, SECRET, now=NOW, guard=ReplayGuard())
    assert delivery.event == "issue_comment" and delivery.payload["comment"]["id"] == 1


def test_unsigned_and_mis_signed_deliveries_are_rejected() -> None:
    body = comment_payload(NOW)
    unsigned = {k: v for k, v in headers(body).items() if k != "x-hub-signature-256"}
    with pytest.raises(Rejected) as caught:
        accept(unsigned, body, SECRET, now=NOW, guard=ReplayGuard())
    assert caught.value.status == 401 and "unsigned" in caught.value.reason
    with pytest.raises(Rejected) as caught:
        accept(headers(body), body + b"\n", SECRET, now=NOW, guard=ReplayGuard())
    assert caught.value.status == 401 and "does not match" in caught.value.reason


def test_stale_deliveries_are_rejected() -> None:
    body = comment_payload(NOW - timedelta(minutes=6))
    with pytest.raises(Rejected) as caught:
        accept(headers(body), body, SECRET, now=NOW, guard=ReplayGuard())
    assert caught.value.status == 400 and "stale" in caught.value.reason
    accept(headers(body), body, SECRET, now=NOW, guard=ReplayGuard(), max_age=timedelta(minutes=10))


def test_a_replayed_delivery_is_rejected() -> None:
    body, guard = comment_payload(NOW), ReplayGuard()
    accept(headers(body), body, SECRET, now=NOW, guard=guard)
    with pytest.raises(Rejected) as caught:
        accept(headers(body), body, SECRET, now=NOW, guard=guard)
    assert caught.value.status == 409


def test_the_replay_guard_forgets_completed_ids_by_age_not_in_flight_ones() -> None:
    """Replaces a test of the count bound (`ReplayGuard(size=2)`): the record is now bounded by
    age, beyond the freshness window plus a margin, where a replay is refused as stale anyway."""
    guard = ReplayGuard(retention=timedelta(minutes=10))
    assert guard.claim("a", None, NOW) is None and guard.claim("b", None, NOW) is None
    guard.complete("a")
    later = NOW + timedelta(minutes=11)
    assert guard.claim("c", None, later) is None  # claiming prunes what is old and done
    assert guard.claim("a", None, later) is None
    assert "still being handled" in (guard.claim("b", None, later) or "")


def test_a_captured_comment_under_a_new_delivery_id_is_refused() -> None:
    """Today's guard knows only delivery ids: the same signed body under a new id was accepted
    (and started a second run)."""
    body, guard = comment_payload(NOW - timedelta(seconds=30)), ReplayGuard()
    accept(headers(body, "first"), body, SECRET, now=NOW, guard=guard)
    with pytest.raises(Rejected) as caught:
        accept(headers(body, "second"), body, SECRET, now=NOW, guard=guard)
    assert caught.value.status == 409 and "comment 1@" in caught.value.reason
    assert "delivery first" in caught.value.reason
    edited = comment_payload(NOW - timedelta(seconds=10))  # a new updated_at: a new command
    accept(headers(edited, "third"), edited, SECRET, now=NOW, guard=guard)


def test_a_released_delivery_may_come_again_and_a_completed_one_may_not() -> None:
    """Today's guard refused every id it had seen, so *Redeliver* after a 503 got 409."""
    body, guard = comment_payload(NOW), ReplayGuard()
    accept(headers(body, "d"), body, SECRET, now=NOW, guard=guard)
    guard.release("d")
    accept(headers(body, "d"), body, SECRET, now=NOW, guard=guard)  # the same comment too
    guard.complete("d")
    with pytest.raises(Rejected) as caught:
        accept(headers(body, "d"), body, SECRET, now=NOW, guard=guard)
    assert caught.value.status == 409 and "already handled" in caught.value.reason


def test_the_record_outlives_a_restart(tmp_path) -> None:
    """Today's record was a dict in the process: a restart forgot every id."""
    body = comment_payload(NOW)
    before = ReplayGuard.in_directory(tmp_path)
    accept(headers(body, "done"), body, SECRET, now=NOW, guard=before)
    before.complete("done")
    other = comment_payload(NOW - timedelta(seconds=1))
    accept(headers(other, "in-flight"), other, SECRET, now=NOW, guard=before)
    before.close()
    after = ReplayGuard.in_directory(tmp_path)
    for delivery in ("done", "again"):  # the same id, and the same comment under a new one
        with pytest.raises(Rejected) as caught:
            accept(headers(body, delivery), body, SECRET, now=NOW, guard=after)
        assert caught.value.status == 409
    # A claim the ended process never settled did not complete: it may be redelivered.
    accept(headers(other, "in-flight"), other, SECRET, now=NOW, guard=after)


def test_a_handler_that_raises_releases_the_delivery() -> None:
    guard, calls = ReplayGuard(), []

    def handler(delivery):
        calls.append(delivery.delivery_id)
        if len(calls) == 1:
            raise RuntimeError("the handler fell over")
        guard.complete(delivery.delivery_id)
        return 202, "queued"

    app = make_app(SECRET, handler, clock=lambda: NOW, guard=guard)
    body = comment_payload(NOW)
    with pytest.raises(RuntimeError):
        call(app, body=body, extra=headers(body, "one"))
    assert call(app, body=body, extra=headers(body, "one"))[0].startswith("202")
    assert call(app, body=body, extra=headers(body, "one"))[0].startswith("409")
    assert calls == ["one", "one"]


def call(app, method: str = "POST", body: bytes = b"", extra: dict[str, str] | None = None):
    environ = {
        "REQUEST_METHOD": method,
        "CONTENT_LENGTH": str(len(body)),
        "wsgi.input": io.BytesIO(body),
    }
    for key, value in (extra or {}).items():
        environ["HTTP_" + key.upper().replace("-", "_")] = value
    seen: list[str] = []
    chunks = app(environ, lambda status, _headers: seen.append(status))
    return seen[0], b"".join(chunks).decode()


def test_the_wsgi_app_answers_each_case() -> None:
    handled: list[str] = []

    def handler(delivery):
        handled.append(delivery.delivery_id)
        return 200, "handled"

    app = make_app(SECRET, handler, clock=lambda: NOW)
    body = comment_payload(NOW)
    assert call(app, "GET")[0].startswith("405")
    assert call(app, body=body, extra={"X-GitHub-Event": "issue_comment"})[0].startswith("401")
    assert call(app, body=body, extra=headers(body, "one"))[0] == "200 OK"
    assert call(app, body=body, extra=headers(body, "one"))[0].startswith("409")
    stale = comment_payload(NOW - timedelta(hours=1))
    assert call(app, body=stale, extra=headers(stale, "two"))[0].startswith("400")
    assert handled == ["one"]


def test_the_app_refuses_to_run_without_a_secret() -> None:
    with pytest.raises(ValueError, match="secret"):
        make_app(b"", lambda d: (200, ""))
