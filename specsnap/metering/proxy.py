"""The meter proper: a reverse proxy on 127.0.0.1 between the agent and its model APIs.

Each API has a route, `/<api>/…`, that stands for the API's base URL. The agent holds only a
per-session placeholder key; the meter forwards nothing that does not carry it, and swaps in the
real key on the way upstream, so a request that goes around the meter cannot authenticate.
Answers are relayed chunk by chunk as they arrive, and counted from what the API sent: the
upstream side is read to its end whether or not the agent still reads (a frozen agent stops
reading; the meter keeps draining), and an answer still arriving when the meter stops is counted
from what arrived.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import queue
import socket
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import SplitResult, parse_qsl, urlencode, urlsplit

from specsnap.metering.apis import Api
from specsnap.metering.streams import answer_objects
from specsnap.tokens import TokenUsage

HOP_BY_HOP = frozenset(
    {
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
)
#: Where requests carry credentials: headers (whole value, or after "Bearer ") and `?key=`.
KEY_HEADERS = ("x-api-key", "x-goog-api-key")
BEARER_HEADERS = ("authorization",)
KEY_QUERY = "key"


@dataclass(frozen=True)
class Upstream:
    """One route of the meter: the API, its real base URL and key, and the session's placeholder
    (the real key is None when the caller has none: the placeholder is then dropped)."""

    api: Api
    base_url: str
    key: str | None
    placeholder: str

    @property
    def parts(self) -> SplitResult:
        return urlsplit(self.base_url)


def swap_key(
    headers: Mapping[str, str], query: str, placeholder: str, key: str | None
) -> tuple[dict[str, str], str, bool]:
    """(headers, query, found): every credential in the request rewritten, the placeholder to the
    real key and anything else dropped; `found` says whether the placeholder was there at all."""
    found = False
    swapped: dict[str, str] = {}
    for name, value in headers.items():
        lower = name.lower()
        if lower in KEY_HEADERS or lower in BEARER_HEADERS:
            bearer = lower in BEARER_HEADERS
            token = value.removeprefix("Bearer ").strip() if bearer else value.strip()
            if token != placeholder:
                continue
            found = True
            if key is not None:
                swapped[name] = f"Bearer {key}" if bearer else key
            continue
        swapped[name] = value
    pairs = parse_qsl(query, keep_blank_values=True)
    if not any(name == KEY_QUERY for name, _ in pairs):
        return swapped, query, found  # untouched, byte for byte
    kept = []
    for name, value in pairs:
        if name == KEY_QUERY:
            found = found or value == placeholder
            if value == placeholder and key is not None:
                kept.append((name, key))
            continue
        kept.append((name, value))
    return swapped, urlencode(kept), found


class _Answer:
    """One answer on its way through the meter: the bytes the API sent, counted once."""

    def __init__(self, api: Api, content_type: str) -> None:
        self.api = api
        self.content_type = content_type
        self.chunks: list[bytes] = []
        self.counted = False

    def usage(self) -> TokenUsage | None:
        return self.api.usage(answer_objects(b"".join(self.chunks), self.content_type))


class TokenMeter:
    """The proxy. `start()` opens it on 127.0.0.1; `url(api)` is what the agent is told;
    `stop()` drains what is still arriving and closes it. `usage` is None until an answer with
    usage passed."""

    def __init__(self, upstreams: Mapping[str, Upstream], timeout_s: float = 600.0) -> None:
        for name, upstream in upstreams.items():
            parts = upstream.parts
            if parts.scheme not in ("http", "https") or not parts.hostname:
                raise ValueError(
                    f"the base URL of the {name} API must be http(s)://host[:port][/path]: "
                    f"{upstream.base_url!r}"
                )
        self.upstreams = dict(upstreams)
        self.timeout_s = timeout_s
        self.answers = 0  # answers that carried usage
        self.partial = 0  # answers counted from a part, the meter having stopped first
        self.refused = 0  # requests without the session's key
        self._usage: TokenUsage | None = None
        self._in_flight: set[_Answer] = set()
        self._lock = threading.Condition()
        self._servers: list[ThreadingHTTPServer] = []
        self._closed = False

    @property
    def port(self) -> int:
        return int(self._servers[0].server_address[1])

    @property
    def usage(self) -> TokenUsage | None:
        return self._usage

    def url(self, api: str) -> str:
        """The base URL the agent uses for `api`."""
        return f"http://127.0.0.1:{self.port}/{api}"

    def start(self) -> TokenMeter:
        server = _Server(("127.0.0.1", 0), _handler_for(self))
        self._serve(server)
        return self

    def adopt(self, listener: socket.socket) -> None:
        """Serve a listening socket too (one the agent's own network namespace holds)."""
        server = _Server(listener.getsockname(), _handler_for(self), bind_and_activate=False)
        server.socket.close()
        server.socket = listener
        self._serve(server)

    def stop(self, drain_s: float = 120.0) -> None:
        """Stop taking requests; wait up to `drain_s` for answers still arriving, then count
        those from what arrived."""
        for server in self._servers:
            server.shutdown()
            server.server_close()
        deadline = time.monotonic() + drain_s
        with self._lock:
            while self._in_flight and time.monotonic() < deadline:
                self._lock.wait(min(0.05, max(0.0, deadline - time.monotonic())))
            self._closed = True
            for answer in list(self._in_flight):
                self.partial += self._count(answer)

    def _serve(self, server: ThreadingHTTPServer) -> None:
        self._servers.append(server)
        threading.Thread(
            target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        ).start()

    # --- answers, called from handler threads ---

    def begin(self, api: Api, content_type: str) -> _Answer:
        answer = _Answer(api, content_type)
        with self._lock:
            self._in_flight.add(answer)
        return answer

    def finish(self, answer: _Answer) -> None:
        with self._lock:
            self._in_flight.discard(answer)
            if not self._closed:
                self._count(answer)
            self._lock.notify_all()

    def _count(self, answer: _Answer) -> int:
        """Add the answer's usage (lock held); 1 if it had any."""
        if answer.counted:
            return 0
        answer.counted = True
        usage = answer.usage()
        if usage is None:
            return 0
        self.answers += 1
        self._usage = usage if self._usage is None else self._usage + usage
        return 1

    def connect(self, parts: SplitResult) -> http.client.HTTPConnection:
        cls = http.client.HTTPSConnection if parts.scheme == "https" else http.client.HTTPConnection
        return cls(parts.hostname or "", parts.port, timeout=self.timeout_s)


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        pass  # an agent that hangs up or is frozen is normal; nothing to report here


class _ClientWriter:
    """Sends an answer to the agent on its own thread, so a frozen agent that stops reading
    never holds up the draining of the upstream side."""

    def __init__(self, handler: BaseHTTPRequestHandler, chunked: bool) -> None:
        self.handler = handler
        self.chunked = chunked
        self.queue: queue.SimpleQueue[bytes | None] = queue.SimpleQueue()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        wfile = self.handler.wfile
        try:
            while (chunk := self.queue.get()) is not None:
                wfile.write(b"%x\r\n%s\r\n" % (len(chunk), chunk) if self.chunked else chunk)
                wfile.flush()
            if self.chunked:
                wfile.write(b"0\r\n\r\n")
                wfile.flush()
        except OSError:
            self.handler.close_connection = True

    def finish(self) -> None:
        self.queue.put(None)
        self.thread.join()


def _handler_for(meter: TokenMeter) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        disable_nagle_algorithm = True  # relay each chunk at once, never held for an ACK

        def log_message(self, format: str, *args: Any) -> None:
            pass

        def _forward(self) -> None:
            route, _, rest = self.path.lstrip("/").partition("/")
            upstream = meter.upstreams.get(route)
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else None
            if upstream is None:
                self._refuse(404, f"no model API is routed at /{route} of SpecSnap's meter")
                return
            path, _, query = rest.partition("?")
            headers, query, found = swap_key(
                {k: v for k, v in self.headers.items() if k.lower() not in HOP_BY_HOP},
                query,
                upstream.placeholder,
                upstream.key,
            )
            if not found:
                with meter._lock:
                    meter.refused += 1
                self._refuse(401, "SpecSnap's meter forwards only requests with the session's key")
                return
            body = _prepare(upstream.api, "/" + path, body)
            headers["Accept-Encoding"] = "identity"  # the meter must read what it forwards
            parts = upstream.parts
            target = parts.path.rstrip("/") + "/" + path + ("?" + query if query else "")
            connection = meter.connect(parts)
            try:
                connection.request(self.command, target, body=body, headers=headers)
                self._relay(upstream.api, connection.getresponse())
            except OSError as exc:
                self._refuse(502, f"the model API did not answer through the meter: {exc}")
            finally:
                connection.close()

        def _relay(self, api: Api, answer: http.client.HTTPResponse) -> None:
            content_type = answer.getheader("Content-Type") or ""
            length = answer.getheader("Content-Length")
            chunked = length is None and self.command != "HEAD"
            self.send_response(answer.status, answer.reason)
            for key, value in answer.getheaders():
                if key.lower() not in HOP_BY_HOP:
                    self.send_header(key, value)
            if length is not None:
                self.send_header("Content-Length", length)
            elif chunked:
                self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            counted = meter.begin(api, content_type)
            writer = _ClientWriter(self, chunked)
            try:
                while chunk := answer.read1(65536):
                    counted.chunks.append(chunk)
                    writer.queue.put(chunk)
            finally:
                meter.finish(counted)
                writer.finish()

        def _refuse(self, status: int, message: str) -> None:
            data = json.dumps({"error": {"type": "specsnap_meter", "message": message}}).encode()
            with contextlib.suppress(OSError):
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = do_HEAD = _forward

    return Handler


def _prepare(api: Api, path: str, body: bytes | None) -> bytes | None:
    """The request body as the API's module wants it sent (e.g. asking for usage)."""
    if not body:
        return body
    try:
        value = json.loads(body)
    except ValueError:
        return body
    prepared = api.prepare(path, value)
    return body if prepared is value else json.dumps(prepared).encode()
