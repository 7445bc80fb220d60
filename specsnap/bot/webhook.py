"""The GitHub App webhook receiver: a small WSGI app that trusts only signed, fresh deliveries.

Every delivery must carry `X-Hub-Signature-256: sha256=<HMAC-SHA256 of the raw body>` under the
App's webhook secret, compared in constant time. GitHub signs no timestamp, so freshness is judged
from the signed payload itself: an `issue_comment` delivery whose comment was created or edited
longer ago than `max_age` is stale (a replay, or a redelivery long after the fact) and refused;
a delivery id already handled or still in flight is refused as a replay, and so is a comment
(its signed `comment.id` and `updated_at`) already received under another delivery id
(specsnap.bot.replays). Deliveries the bot does not act on are acknowledged (202) and dropped.
A delivery the handler fails on (it raises) is released, so that a redelivery is processed; the
handler settles the others (specsnap.bot.service).

Status codes: 401 unsigned or wrong signature; 400 malformed or stale; 409 replayed (the same
delivery id, or the same comment under a new one: GitHub shows it failed, as it should); 413 too
large; 405 neither a POST nor the health check; then whatever the handler answers (202 queued or
ignored, 200 handled, 503 busy). `GET /healthz` answers the service's health as JSON: 200 when
healthy, 503 when not.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, Protocol

from specsnap.bot.replays import MARGIN, ReplayGuard, comment_key

#: GitHub caps webhook payloads at 25 MB.
MAX_BODY = 25 * 1024 * 1024
DEFAULT_MAX_AGE = timedelta(minutes=5)


def signature(secret: bytes, body: bytes) -> str:
    """The `X-Hub-Signature-256` value GitHub sends for `body`."""
    return "sha256=" + hmac.new(secret, body, hashlib.sha256).hexdigest()


def verify_signature(secret: bytes, body: bytes, header: str | None) -> bool:
    """Whether `header` is the valid signature of `body` (constant-time comparison)."""
    if not secret or not header:
        return False
    return hmac.compare_digest(signature(secret, body).encode(), header.strip().encode())


@dataclass(frozen=True)
class Delivery:
    event: str
    delivery_id: str
    payload: Mapping[str, Any]


class Rejected(Exception):
    """A delivery refused before any processing, with the HTTP status to answer."""

    def __init__(self, status: int, reason: str) -> None:
        super().__init__(reason)
        self.status = status
        self.reason = reason


def event_time(event: str, payload: Mapping[str, Any]) -> datetime | None:
    """When the signed payload says its event happened; None for events without a time."""
    if event == "issue_comment":
        comment = payload.get("comment") or {}
        stamp = comment.get("updated_at") or comment.get("created_at")
        if isinstance(stamp, str):
            return datetime.fromisoformat(stamp.replace("Z", "+00:00"))
    return None


def accept(
    headers: Mapping[str, str],
    body: bytes,
    secret: bytes,
    *,
    now: datetime,
    guard: ReplayGuard,
    max_age: timedelta = DEFAULT_MAX_AGE,
) -> Delivery:
    """The verified delivery, or Rejected saying why not. `headers` keys are lower-case."""
    if not headers.get("x-hub-signature-256"):
        raise Rejected(401, "unsigned delivery: X-Hub-Signature-256 is missing")
    if not verify_signature(secret, body, headers.get("x-hub-signature-256")):
        raise Rejected(401, "X-Hub-Signature-256 does not match the body and the secret")
    event = headers.get("x-github-event", "")
    delivery_id = headers.get("x-github-delivery", "")
    if not event or not delivery_id:
        raise Rejected(400, "X-GitHub-Event and X-GitHub-Delivery are required")
    try:
        payload = json.loads(body)
    except ValueError:
        raise Rejected(400, "the body is not JSON") from None
    if not isinstance(payload, dict):
        raise Rejected(400, "the body is not a JSON object")
    try:
        happened = event_time(event, payload)
    except ValueError:
        raise Rejected(400, "the event's timestamp is not ISO 8601") from None
    if happened is not None and now - happened > max_age:
        raise Rejected(400, f"stale delivery: the event happened {now - happened} ago")
    refusal = guard.claim(delivery_id, comment_key(event, payload), now)
    if refusal is not None:
        raise Rejected(409, refusal)
    return Delivery(event, delivery_id, payload)


#: Acts on a verified delivery; returns (HTTP status, short text for the response body).
Handler = Callable[[Delivery], tuple[int, str]]
StartResponse = Callable[[str, list[tuple[str, str]]], Any]

_REASONS = {
    200: "OK",
    202: "Accepted",
    400: "Bad Request",
    401: "Unauthorized",
    405: "Method Not Allowed",
    409: "Conflict",
    413: "Payload Too Large",
    500: "Internal Server Error",
    503: "Service Unavailable",
}
HEALTH_PATH = "/healthz"


class HealthReport(Protocol):
    @property
    def ok(self) -> bool: ...

    def as_dict(self) -> dict[str, Any]: ...


def make_app(
    secret: bytes,
    handler: Handler,
    *,
    clock: Callable[[], datetime] = lambda: datetime.now(UTC),
    max_age: timedelta = DEFAULT_MAX_AGE,
    guard: ReplayGuard | None = None,
    health: Callable[[], HealthReport] | None = None,
) -> Callable[[dict[str, Any], StartResponse], Iterable[bytes]]:
    """A WSGI application receiving deliveries at any path (and, given `health`, answering
    `GET /healthz`); refuses to start without a secret. `handler` settles each delivery it is
    given in `guard` (completes or releases it)."""
    if not secret:
        raise ValueError("a webhook secret is required: unsigned deliveries are never accepted")
    replay_guard = guard or ReplayGuard(retention=max_age + MARGIN)

    def app(environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        def answer(status: int, text: str, kind: str = "text/plain") -> list[bytes]:
            body = (text + "\n").encode()
            start_response(
                f"{status} {_REASONS.get(status, 'Error')}",
                [("Content-Type", f"{kind}; charset=utf-8"), ("Content-Length", str(len(body)))],
            )
            return [body]

        method = environ.get("REQUEST_METHOD")
        if health is not None and method == "GET" and environ.get("PATH_INFO") == HEALTH_PATH:
            report = health()
            return answer(
                200 if report.ok else 503, json.dumps(report.as_dict()), "application/json"
            )
        if method != "POST":
            return answer(405, "POST webhook deliveries here")
        try:
            length = int(environ.get("CONTENT_LENGTH") or 0)
        except ValueError:
            return answer(400, "bad Content-Length")
        if length > MAX_BODY:
            return answer(413, "payload too large")
        body = environ["wsgi.input"].read(length) if length else b""
        headers = {
            key[5:].replace("_", "-").lower(): str(value)
            for key, value in environ.items()
            if key.startswith("HTTP_")
        }
        try:
            delivery = accept(
                headers, body, secret, now=clock(), guard=replay_guard, max_age=max_age
            )
        except Rejected as exc:
            return answer(exc.status, exc.reason)
        try:
            status, text = handler(delivery)
        except BaseException:
            replay_guard.release(delivery.delivery_id)
            raise
        return answer(status, text)

    return app
