"""What the scripted, offline model servers share (fake_anthropic, fake_openai, fake_gemini).

A server answers a real agent CLI the way its API does, from a script: a list of turns, each a
list of content blocks (text, or a call of one of the CLI's own tools) and the usage to report.
Once the script is exhausted, every further conversation turn gets `final`. Requests the CLI
makes on its own (a title, a commit message: each server says how it tells them apart) get a
short text with `side_usage`, so a test can still assert exact token sums.

Every server:
- checks the API key when given one (`api_key`): a request without it is answered 401, as the
  real API would, and recorded with `rejected=True` — how a test shows that a request which
  went around SpecSnap's meter (and so holds only the session's placeholder) gets nowhere;
- can stall a turn in the middle of its answer (`Turn.stall_s`): it sends half, calls
  `on_stall(turn_index)` (a test cuts the session off there), waits, then sends the rest;
- records every request, and the usage of every answer it sent (`served`, in SpecSnap's terms:
  `input` excludes cache reads, as Anthropic counts; each fake converts to its API's fields);
- listens on 127.0.0.1 on a free port, on daemon threads, and stops by itself after
  `idle_timeout` seconds without a request. Use it as a context manager.
"""

from __future__ import annotations

import itertools
import json
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit


@dataclass(frozen=True)
class Usage:
    """The usage one answer reports (Anthropic's field names; each fake converts them)."""

    input_tokens: int = 0  # excluding cache reads and writes
    output_tokens: int = 0
    cache_creation_input_tokens: int = 0
    cache_read_input_tokens: int = 0

    def __add__(self, other: Usage) -> Usage:
        return Usage(
            self.input_tokens + other.input_tokens,
            self.output_tokens + other.output_tokens,
            self.cache_creation_input_tokens + other.cache_creation_input_tokens,
            self.cache_read_input_tokens + other.cache_read_input_tokens,
        )

    def as_dict(self) -> dict[str, int]:
        return {
            "input_tokens": self.input_tokens,
            "output_tokens": self.output_tokens,
            "cache_creation_input_tokens": self.cache_creation_input_tokens,
            "cache_read_input_tokens": self.cache_read_input_tokens,
        }

    def counts(self) -> tuple[int, int, int, int]:
        """In SpecSnap's order: input, output, cache_write, cache_read."""
        return (
            self.input_tokens,
            self.output_tokens,
            self.cache_creation_input_tokens,
            self.cache_read_input_tokens,
        )


@dataclass(frozen=True)
class Block:
    """One content block of a scripted reply: `text`, or a `tool_use` of `name` with `input`."""

    type: str
    text: str = ""
    name: str = ""
    input: dict[str, Any] = field(default_factory=dict)


def trust_reasons(card: dict[str, Any]) -> list[str]:
    """A card's reasons about its tokens or egress, leaving out the one every run against a
    scripted server has: the meter forwarded to an address that is not the API's public one
    (docs/protocol.md), so the counts are the server's, which SpecSnap cannot check."""
    return [
        r
        for r in card["unofficial_reasons"]
        if ("token" in r or "egress" in r) and "the meter forwarded" not in r
    ]


def text(value: str) -> Block:
    return Block("text", text=value)


def tool_use(name: str, **tool_input: Any) -> Block:
    return Block("tool_use", name=name, input=tool_input)


@dataclass(frozen=True)
class Turn:
    """One scripted model reply. `delay` holds the whole reply back (seconds); `stall_s` sends
    half of it, calls the server's `on_stall`, waits that long and sends the rest. A stopping
    server releases both at once."""

    blocks: tuple[Block, ...]
    usage: Usage
    delay: float = 0.0
    stall_s: float = 0.0


@dataclass(frozen=True)
class RecordedRequest:
    method: str
    path: str
    headers: dict[str, str]
    body: Any  # parsed JSON, or the raw text when the body was not JSON
    turn: int | None  # index of the scripted turn served; None for side requests and others
    rejected: bool = False  # answered 401: the request lacked the server's API key

    def header(self, name: str) -> str | None:
        return next((v for k, v in self.headers.items() if k.lower() == name.lower()), None)


def presented_keys(headers: dict[str, str], path: str) -> set[str]:
    """Every credential a request presents: x-api-key, x-goog-api-key, Bearer, `?key=`."""
    found = set()
    for name, value in headers.items():
        lower = name.lower()
        if lower in ("x-api-key", "x-goog-api-key"):
            found.add(value.strip())
        elif lower == "authorization":
            found.add(value.removeprefix("Bearer ").strip())
    found.update(parse_qs(urlsplit(path).query).get("key", []))
    return found


class ScriptedServer:
    """The machinery; subclasses implement `answer(handler, path, body)`."""

    def __init__(
        self,
        script: Sequence[Turn],
        *,
        final: Turn,
        side_usage: Usage,
        api_key: str | None = None,
        idle_timeout: float = 120.0,
    ) -> None:
        self.script = tuple(script)
        self.final = final
        self.side_usage = side_usage
        self.api_key = api_key
        self.idle_timeout = idle_timeout
        self.on_stall: Callable[[int], None] | None = None
        self.requests: list[RecordedRequest] = []
        self.served: list[Usage] = []  # usage of every model answer sent, in order
        self.stalled = threading.Event()  # set once a stalled turn has sent its first half
        self._lock = threading.Lock()
        self._next_turn = 0
        self.ids = itertools.count(1)
        self._last_activity = time.monotonic()
        self._stopping = threading.Event()
        self._httpd = _Server(("127.0.0.1", 0), _handler_for(self))

    @property
    def base_url(self) -> str:
        host, port = self._httpd.server_address[:2]
        return f"http://{host!s}:{port}"

    @property
    def stopped(self) -> bool:
        return self._stopping.is_set()

    @property
    def turns_served(self) -> int:
        """How many conversation turns were answered (scripted ones and finals)."""
        return sum(1 for r in self.requests if r.turn is not None)

    @property
    def rejected(self) -> list[RecordedRequest]:
        return [r for r in self.requests if r.rejected]

    def total_usage(self) -> Usage:
        """The sum of the usage of every model answer sent so far."""
        with self._lock:
            return sum(self.served, Usage())

    def start(self) -> ScriptedServer:
        threading.Thread(
            target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        ).start()
        threading.Thread(target=self._watch_idle, daemon=True).start()
        return self

    def stop(self) -> None:
        if self._stopping.is_set():
            return
        self._stopping.set()
        self._httpd.shutdown()
        self._httpd.server_close()

    def _watch_idle(self) -> None:
        while not self._stopping.wait(min(1.0, self.idle_timeout / 2)):
            if time.monotonic() - self._last_activity > self.idle_timeout:
                self.stop()
                return

    # --- for subclasses, called from handler threads ---

    def answer(self, handler: Handler, path: str, body: Any) -> None:
        raise NotImplementedError

    def record(self, request: RecordedRequest) -> None:
        with self._lock:
            self.requests.append(request)
            self._last_activity = time.monotonic()

    def conversation_turn(self) -> tuple[int, Turn]:
        with self._lock:
            index = self._next_turn
            self._next_turn += 1
        return index, self.script[index] if index < len(self.script) else self.final

    def side_turn(self, reply: str = "Scripted side reply.") -> Turn:
        return Turn((text(reply),), self.side_usage)

    def serve_usage(self, usage: Usage) -> None:
        with self._lock:
            self.served.append(usage)

    def wait(self, seconds: float) -> None:
        self._stopping.wait(seconds)

    def send_parts(
        self, handler: Handler, turn: Turn, index: int | None, parts: Iterator[bytes]
    ) -> None:
        """Write an answer's parts (already framed), stalling half-way for a stalled turn."""
        pieces = list(parts)
        half = len(pieces) // 2 if turn.stall_s else -1
        for position, piece in enumerate(pieces):
            if position == half:
                self.stalled.set()
                if self.on_stall is not None and index is not None:
                    self.on_stall(index)
                self.wait(turn.stall_s)
            try:
                handler.wfile.write(piece)
                handler.wfile.flush()
            except OSError:
                return

    def stream_sse(
        self, handler: Handler, turn: Turn, index: int | None, events: Iterator[str]
    ) -> None:
        """Answer with server-sent events (`events` yields each event's framed text)."""
        handler.send_response(200)
        handler.send_header("Content-Type", "text/event-stream")
        handler.send_header("Cache-Control", "no-cache")
        handler.send_header("Connection", "close")
        handler.end_headers()
        self.send_parts(handler, turn, index, (e.encode() for e in events))
        handler.close_connection = True

    def send_json_body(
        self, handler: Handler, turn: Turn, index: int | None, payload: Any, status: int = 200
    ) -> None:
        """Answer with one JSON body (in two halves around a stall, for a stalled turn)."""
        data = json.dumps(payload).encode()
        handler.send_response(status)
        handler.send_header("Content-Type", "application/json")
        handler.send_header("Content-Length", str(len(data)))
        handler.end_headers()
        middle = len(data) // 2
        self.send_parts(handler, turn, index, iter([data[:middle], data[middle:]]))

    def hold(self, turn: Turn) -> bool:
        """Wait out a turn's delay; False when the server stopped meanwhile."""
        self.wait(turn.delay)
        return not self.stopped


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        if not isinstance(sys.exc_info()[1], ConnectionError):  # a client hanging up is normal
            super().handle_error(request, client_address)


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_logic: ScriptedServer

    def log_message(self, format: str, *args: Any) -> None:
        pass  # the recorded requests are the log

    def do_GET(self) -> None:
        self._handle(None)

    def do_HEAD(self) -> None:
        self._handle(None)

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length).decode("utf-8", "replace")
        try:
            body: Any = json.loads(raw) if raw else {}
        except ValueError:
            body = raw
        self._handle(body)

    def _handle(self, body: Any) -> None:
        logic = self.server_logic
        if logic.api_key is not None and logic.api_key not in presented_keys(
            dict(self.headers.items()), self.path
        ):
            self.record(body, None, rejected=True)
            self.send_error_json(401, "invalid x-api-key")
            return
        logic.answer(self, self.path.split("?", 1)[0], body)

    def record(self, body: Any, turn: int | None, rejected: bool = False) -> None:
        self.server_logic.record(
            RecordedRequest(
                self.command, self.path, dict(self.headers.items()), body, turn, rejected
            )
        )

    def send_error_json(self, status: int, message: str) -> None:
        data = json.dumps(
            {"type": "error", "error": {"type": "error", "code": status, "message": message}}
        ).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(data)


def _handler_for(logic: ScriptedServer) -> type[Handler]:
    return type("BoundHandler", (Handler,), {"server_logic": logic})


def chunks(value: str, size: int = 40) -> list[str]:
    return [value[i : i + size] for i in range(0, len(value), size)] or [""]
