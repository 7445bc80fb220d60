"""SpecSnap's token meter: a reverse proxy between the agent and its model API.

An agent's own report of its usage is something the agent wrote, and the agent under test is an
adversary. The meter counts tokens from the model API's answers instead (`source: metered`): the
session runner starts it on 127.0.0.1, points the adapter's base-URL variable at it (e.g.
ANTHROPIC_BASE_URL for Claude Code), and forwards every request unchanged to the real API.
Streamed answers are passed through chunk by chunk as they arrive.

It counts what passes through it. An agent that talks to its API by another route is not
metered; the session record then shows a reported figure but no metered one.
"""

from __future__ import annotations

import http.client
import json
import threading
from collections.abc import Iterable, Mapping
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import urlsplit

from specsnap.tokens import TokenUsage

HOP_BY_HOP = {
    "connection",
    "keep-alive",
    "proxy-authenticate",
    "proxy-authorization",
    "te",
    "trailers",
    "transfer-encoding",
    "upgrade",
    "host",
    "content-length",
    "accept-encoding",
}
ANTHROPIC_FIELDS = (
    "input_tokens",
    "output_tokens",
    "cache_creation_input_tokens",
    "cache_read_input_tokens",
)


def anthropic_usage(events: Iterable[Mapping[str, Any]]) -> TokenUsage | None:
    """Usage of one Messages API answer, from its JSON body or its stream events.

    `message_start` carries the input-side counts; `message_delta` the final, cumulative ones.
    """
    merged: dict[str, int] = {}
    for event in events:
        kind = event.get("type")
        if kind == "message_start":
            usage = (event.get("message") or {}).get("usage") or {}
        elif kind in ("message_delta", "message"):
            usage = event.get("usage") or {}
        else:
            continue
        for key in ANTHROPIC_FIELDS:
            value = usage.get(key)
            if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
                merged[key] = max(merged.get(key, 0), value)
    if not merged:
        return None
    return TokenUsage(
        merged.get("input_tokens", 0),
        merged.get("output_tokens", 0),
        merged.get("cache_creation_input_tokens", 0),
        merged.get("cache_read_input_tokens", 0),
        "metered",
    )


def sse_data(chunks: Iterable[bytes]) -> list[dict[str, Any]]:
    """The JSON objects of a server-sent-event stream's `data:` lines (others are skipped)."""
    events = []
    for line in b"".join(chunks).splitlines():
        if line.startswith(b"data:"):
            try:
                value = json.loads(line[5:].strip())
            except ValueError:
                continue
            if isinstance(value, dict):
                events.append(value)
    return events


class TokenMeter:
    """The proxy. `start()` returns its base URL; `usage` is None until a model answer passed."""

    def __init__(self, upstream: str, timeout_s: float = 600.0) -> None:
        parts = urlsplit(upstream)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError(
                f"the metered API's base URL must be http(s)://host[:port]: {upstream}"
            )
        self.upstream = parts
        self.timeout_s = timeout_s
        self.answers = 0
        self._usage: TokenUsage | None = None
        self._lock = threading.Lock()
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), _handler_for(self))
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        port = self._httpd.server_address[1]
        return f"http://127.0.0.1:{port}{self.upstream.path.rstrip('/')}"

    @property
    def usage(self) -> TokenUsage | None:
        return self._usage

    def start(self) -> str:
        self._thread.start()
        return self.base_url

    def stop(self) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()

    def count(self, usage: TokenUsage | None) -> None:
        if usage is None:
            return
        with self._lock:
            self.answers += 1
            self._usage = usage if self._usage is None else self._usage + usage

    def connect(self) -> http.client.HTTPConnection:
        cls = (
            http.client.HTTPSConnection
            if self.upstream.scheme == "https"
            else http.client.HTTPConnection
        )
        return cls(self.upstream.hostname or "", self.upstream.port, timeout=self.timeout_s)


def _handler_for(meter: TokenMeter) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:
            pass

        def _forward(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else None
            headers = {k: v for k, v in self.headers.items() if k.lower() not in HOP_BY_HOP}
            headers["Accept-Encoding"] = "identity"  # the meter must read what it forwards
            upstream = meter.connect()
            try:
                upstream.request(self.command, self.path, body=body, headers=headers)
                answer = upstream.getresponse()
                self._relay(answer)
            except OSError as exc:
                self.send_error(502, f"the model API did not answer through the meter: {exc}")
            finally:
                upstream.close()

        def _relay(self, answer: http.client.HTTPResponse) -> None:
            streamed = "text/event-stream" in (answer.getheader("Content-Type") or "")
            self.send_response(answer.status, answer.reason)
            for key, value in answer.getheaders():
                if key.lower() not in HOP_BY_HOP:
                    self.send_header(key, value)
            if not streamed:
                data = answer.read()
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
                if answer.status == 200:
                    meter.count(_json_usage(data))
                return
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            seen = []
            client = True  # a frozen or ended agent stops reading; the answer still counts
            while chunk := answer.read1(65536):
                seen.append(chunk)
                if client:
                    client = self._send_chunk(chunk)
            if client:
                self._send_chunk(b"")
            meter.count(anthropic_usage(sse_data(seen)))

        def _send_chunk(self, chunk: bytes) -> bool:
            try:
                self.wfile.write(b"%x\r\n%s\r\n" % (len(chunk), chunk))
                self.wfile.flush()
            except OSError:
                return False
            return True

        do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = do_HEAD = _forward

    return Handler


def _json_usage(data: bytes) -> TokenUsage | None:
    try:
        value = json.loads(data)
    except ValueError:
        return None
    if not isinstance(value, dict) or value.get("type") != "message":
        return None
    return anthropic_usage([value])
