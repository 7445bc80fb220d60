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
    stamp = updated.strftime("%Y-%m-%dT%H:%M:%SZ")
    return json.dumps(
        {"action": "created", "comment": {"id": 1, "created_at": stamp, "updated_at": stamp}}
    ).encode()


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


def test_the_replay_guard_forgets_only_the_oldest() -> None:
    guard = ReplayGuard(size=2)
    assert guard.first_time("a") and guard.first_time("b") and guard.first_time("c")
    assert not guard.first_time("c") and guard.first_time("a")


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
