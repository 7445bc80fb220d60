"""The meter proper: a reverse proxy on 127.0.0.1 between the agent and its model APIs.

Each API has a route, `/<api>/…`, that stands for the API's base URL. The agent holds only a
per-session placeholder key; the meter forwards nothing that does not carry it, and swaps in the
real key on the way upstream (always in a header, never in the URL), so a request that goes
around the meter cannot authenticate. It forwards only the endpoints it can count
(specsnap.metering.endpoints) and refuses, and records, every other request.

A request is registered before it goes upstream. Answers are relayed chunk by chunk as they
arrive, and counted from what the API sent: the upstream side is read to its end whether or not
the agent still reads (a frozen agent stops reading; the meter keeps draining), and an answer
still arriving when the meter stops is counted from what arrived. An answer of a billed
endpoint whose usage cannot be read (it never came, was cut off before any count, or was in a
form the meter does not read) is *unreadable*: the session's tokens are then unknown, never
zero. An error answer (a status other than 2xx) is not billed by the APIs, and counts nothing.

Over 400 lines: registering, forwarding, relaying and counting share one request's state.
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
from specsnap.metering.endpoints import admit
from specsnap.metering.streams import answer_objects
from specsnap.scorecard.model import Tokens
from specsnap.trajectory.steps import MAX_STEPS, MeteredStep, metered_step

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
    headers: Mapping[str, str], query: str, placeholder: str, key: str | None, key_header: str
) -> tuple[dict[str, str], list[tuple[str, str]], bool]:
    """(headers, query, found): every credential in the request rewritten, the placeholder to the
    real key and anything else dropped; `found` says whether the placeholder was there at all.
    A placeholder in the query (`?key=`) is taken out of it and the real key goes into the API's
    `key_header` instead: a key in a URL is repeated by logs and error messages."""
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
    kept = [(name, value) for name, value in pairs if name != KEY_QUERY]
    if (KEY_QUERY, placeholder) in pairs:
        if not found and key is not None:
            bearer = key_header in BEARER_HEADERS
            swapped[key_header] = f"Bearer {key}" if bearer else key
        found = True
    return swapped, kept, found


class _Answer:
    """One request on its way through the meter, registered before it goes upstream: whether
    its endpoint is billed, and the answer's status and bytes as the API sent them."""

    def __init__(self, api: Api, billed: bool, seq: int = 0, request: bytes | None = None) -> None:
        self.api = api
        self.billed = billed
        self.seq = seq  # the request's order in the session
        self.request = request
        self.status: int | None = None  # None until the answer's head arrived
        self.content_type = ""
        self.chunks: list[bytes] = []
        self.counted = False

    def objects(self) -> list[dict[str, Any]]:
        return answer_objects(b"".join(self.chunks), self.content_type)

    def usage(self) -> Tokens | None:
        return self.api.usage(self.objects())

    @property
    def failed(self) -> bool:
        """An error answer: the APIs bill nothing for one."""
        return self.status is not None and not 200 <= self.status < 300


class TokenMeter:
    """The proxy. `start()` opens it on 127.0.0.1; `url(api)` is what the agent is told;
    `stop()` drains what is still arriving and closes it. `usage` is None until an answer with
    usage passed; `unreadable` counts the billed answers whose usage could not be read."""

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
        self.partial = 0  # requests still under way when the meter stopped
        self.refused = 0  # requests without the session's key
        self.unreadable = 0  # billed answers without usage the meter could read
        self.unmetered: list[str] = []  # requests refused for an endpoint the meter cannot count
        self.steps: list[MeteredStep] = []  # billed answers, for the trajectory (bounded)
        self.steps_dropped = 0  # billed answers beyond MAX_STEPS
        self._requests = 0
        self._usage: Tokens | None = None
        self._in_flight: set[_Answer] = set()
        self._lock = threading.Condition()
        self._servers: list[ThreadingHTTPServer] = []
        self._closed = False

    @property
    def port(self) -> int:
        return int(self._servers[0].server_address[1])

    @property
    def usage(self) -> Tokens | None:
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
        """Stop taking requests; wait up to `drain_s` for requests still under way, then count
        those from what arrived (one that got no readable usage is unreadable)."""
        for server in self._servers:
            server.shutdown()
            server.server_close()
        deadline = time.monotonic() + drain_s
        with self._lock:
            self._closed = True  # a kept-alive connection's next request is refused from now on
            while self._in_flight and time.monotonic() < deadline:
                self._lock.wait(min(0.05, max(0.0, deadline - time.monotonic())))
            for answer in list(self._in_flight):
                self.partial += 1
                self._count(answer, torn=True)
            self.steps.sort(key=lambda step: step.seq)

    def _serve(self, server: ThreadingHTTPServer) -> None:
        self._servers.append(server)
        threading.Thread(
            target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        ).start()

    # --- requests and answers, called from handler threads ---

    def register(self, api: Api, billed: bool, request: bytes | None = None) -> _Answer | None:
        """A request about to go upstream; None once the meter has stopped (it must not go)."""
        with self._lock:
            if self._closed:
                return None
            self._requests += 1
            answer = _Answer(api, billed, self._requests, request)
            self._in_flight.add(answer)
        return answer

    def withdraw(self, answer: _Answer) -> None:
        """A registered request that never reached the API (it could not be connected to)."""
        with self._lock:
            self._in_flight.discard(answer)
            answer.counted = True
            self._lock.notify_all()

    def finish(self, answer: _Answer) -> None:
        with self._lock:
            self._in_flight.discard(answer)
            self._count(answer)
            self._lock.notify_all()

    def refuse_endpoint(self, what: str) -> None:
        with self._lock:
            self.unmetered.append(what)

    def refuse_key(self) -> None:
        with self._lock:
            self.refused += 1

    def _count(self, answer: _Answer, torn: bool = False) -> None:
        """Add the answer's usage (lock held), or count it as unreadable; keep its step."""
        if answer.counted:
            return
        answer.counted = True
        objects = answer.objects()
        usage = answer.api.usage(objects)
        if answer.billed and not answer.failed:
            self._keep_step(answer, objects, usage, torn)
        if usage is None:
            if answer.billed and not answer.failed:
                self.unreadable += 1
            return
        self.answers += 1
        self._usage = usage if self._usage is None else self._usage + usage

    def _keep_step(
        self, answer: _Answer, objects: list[dict[str, Any]], usage: Tokens | None, torn: bool
    ) -> None:
        if len(self.steps) >= MAX_STEPS:
            self.steps_dropped += 1
            return
        step = metered_step(answer.seq, answer.api.name, answer.request, objects, usage, torn)
        self.steps.append(step)

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
            path = "/" + path
            api = upstream.api
            headers, pairs, found = swap_key(
                {k: v for k, v in self.headers.items() if k.lower() not in HOP_BY_HOP},
                query,
                upstream.placeholder,
                upstream.key,
                api.key_header,
            )
            if not found:
                meter.refuse_key()
                self._refuse(401, "SpecSnap's meter forwards only requests with the session's key")
                return
            endpoint = admit(api.endpoints, self.command, path, pairs, dict(self.headers), body)
            if isinstance(endpoint, str):
                meter.refuse_endpoint(f"{self.command} /{route}{path}")
                self._refuse(403, f"SpecSnap's meter refused this request: {endpoint}")
                return
            body = _prepare(api, path, body) if endpoint.billed else body
            headers["Accept-Encoding"] = "identity"  # the meter must read what it forwards
            target = path + ("?" + urlencode(pairs) if pairs else "")
            self._send(upstream, target, headers, body, endpoint.billed)

        def _send(
            self,
            upstream: Upstream,
            path: str,
            headers: dict[str, str],
            body: bytes | None,
            billed: bool,
        ) -> None:
            """Register the request, send it upstream and relay the answer."""
            counted = meter.register(upstream.api, billed, body if billed else None)
            if counted is None:
                self._refuse(503, "SpecSnap's meter has stopped: the session is over")
                return
            parts = upstream.parts
            connection = meter.connect(parts)
            try:
                connection.connect()
            except OSError as exc:
                meter.withdraw(counted)  # nothing reached the API: nothing to bill
                self._refuse(502, f"the model API did not answer through the meter: {exc}")
                return
            try:
                target = parts.path.rstrip("/") + path
                connection.request(self.command, target, body=body, headers=headers)
                self._relay(counted, connection.getresponse())
            except OSError as exc:
                self._refuse(502, f"the model API did not answer through the meter: {exc}")
            finally:
                meter.finish(counted)
                connection.close()

        def _relay(self, counted: _Answer, answer: http.client.HTTPResponse) -> None:
            counted.status = answer.status
            counted.content_type = answer.getheader("Content-Type") or ""
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
            writer = _ClientWriter(self, chunked)
            try:
                while chunk := answer.read1(65536):
                    counted.chunks.append(chunk)
                    writer.queue.put(chunk)
            finally:
                meter.finish(counted)  # counted now, however slowly the agent reads
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
    """A billed request's body (a JSON object, `admit` saw to it) as the API's module wants it
    sent (e.g. asking for usage), written out again from what the meter read: the API then acts
    on exactly the request the meter understood (a duplicate key, read differently upstream,
    could otherwise turn off what the meter asked for)."""
    return json.dumps(api.prepare(path, json.loads(body or b"{}"))).encode()
