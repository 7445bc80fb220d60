"""A scripted, offline stand-in for the Anthropic Messages API, for driving real agent CLIs.

The server answers `POST /v1/messages` the way the real API does, streaming (server-sent events:
message_start, content_block_start/delta/stop, message_delta, message_stop) or as one JSON body,
from a script: a list of turns, each a list of content blocks (text, or a tool_use of the CLI's
own tools) with the usage numbers to report. Once the script is exhausted every further
conversation turn gets a final text with stop_reason end_turn.

Only requests that offer tools (the agent's main loop) advance the script. Side requests a CLI
makes on its own (a session title, a quota probe: no tools) get a short text reply with
`side_usage`, so a test can still assert exact token sums.

The server records every request, runs on a daemon thread on 127.0.0.1 and a free port, and stops
by itself after `idle_timeout` seconds without a request, so a forgotten server never outlives
its test for long. Use it as a context manager.

A cutoff test scripts turn 1 as a `write_file()` of a .py file and gives turn 2 a long `delay`:
the CLI writes the file, asks for turn 2 (`turns_served == 2` proves the write is done and
turn 1's usage is on stdout) and waits there while SpecSnap cuts the session off.
"""

from __future__ import annotations

import itertools
import json
import sys
import threading
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

MODEL = "claude-fake-1"


@dataclass(frozen=True)
class Usage:
    """The usage one response reports (the Messages API's field names)."""

    input_tokens: int = 0
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


@dataclass(frozen=True)
class Block:
    """One content block of a scripted reply: `text`, or a `tool_use` of `name` with `input`."""

    type: str
    text: str = ""
    name: str = ""
    input: dict[str, Any] = field(default_factory=dict)


def text(value: str) -> Block:
    return Block("text", text=value)


def tool_use(name: str, **tool_input: Any) -> Block:
    return Block("tool_use", name=name, input=tool_input)


def write_file(file_path: str, content: str) -> Block:
    """Claude Code's Write tool (the path must be absolute)."""
    return tool_use("Write", file_path=file_path, content=content)


def bash(command: str, description: str = "Run a command") -> Block:
    """Claude Code's Bash tool."""
    return tool_use("Bash", command=command, description=description)


@dataclass(frozen=True)
class Turn:
    """One scripted model reply. `delay` holds the reply back (seconds), e.g. to keep a CLI busy
    while a test cuts the session off; a stopping server releases it at once."""

    blocks: tuple[Block, ...]
    usage: Usage
    delay: float = 0.0


@dataclass(frozen=True)
class RecordedRequest:
    method: str
    path: str
    headers: dict[str, str]
    body: Any  # parsed JSON, or the raw text when the body was not JSON
    turn: int | None  # index of the scripted turn served; None for side requests and others


class FakeAnthropic:
    """The server. `script` is served in order; `final` answers every conversation turn after."""

    def __init__(
        self,
        script: Sequence[Turn],
        *,
        final: Turn | None = None,
        side_usage: Usage = Usage(input_tokens=11, output_tokens=3),
        idle_timeout: float = 120.0,
    ) -> None:
        self.script = tuple(script)
        self.final = final or Turn((text("Done."),), Usage(input_tokens=50, output_tokens=5))
        self.side_usage = side_usage
        self.idle_timeout = idle_timeout
        self.requests: list[RecordedRequest] = []
        self.served: list[Usage] = []  # usage of every /v1/messages response sent, in order
        self._lock = threading.Lock()
        self._next_turn = 0
        self._ids = itertools.count(1)
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

    def total_usage(self) -> Usage:
        """The sum of the usage of every /v1/messages response sent so far."""
        with self._lock:
            return sum(self.served, Usage())

    def start(self) -> FakeAnthropic:
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

    def __enter__(self) -> FakeAnthropic:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    def _watch_idle(self) -> None:
        while not self._stopping.wait(min(1.0, self.idle_timeout / 2)):
            if time.monotonic() - self._last_activity > self.idle_timeout:
                self.stop()
                return

    # --- request handling, called from handler threads ---

    def _record(self, request: RecordedRequest) -> None:
        with self._lock:
            self.requests.append(request)
            self._last_activity = time.monotonic()

    def _conversation_turn(self) -> tuple[int, Turn]:
        with self._lock:
            index = self._next_turn
            self._next_turn += 1
        return index, self.script[index] if index < len(self.script) else self.final

    def _message(self, body: dict[str, Any], turn: Turn) -> dict[str, Any]:
        content: list[dict[str, Any]] = []
        for block in turn.blocks:
            if block.type == "text":
                content.append({"type": "text", "text": block.text})
            else:
                tool_id = f"toolu_fake{next(self._ids):06d}"
                content.append(
                    {"type": "tool_use", "id": tool_id, "name": block.name, "input": block.input}
                )
        with self._lock:
            self.served.append(turn.usage)
        stop = "tool_use" if any(b.type == "tool_use" for b in turn.blocks) else "end_turn"
        return {
            "id": f"msg_fake{next(self._ids):06d}",
            "type": "message",
            "role": "assistant",
            "model": body.get("model") or MODEL,
            "content": content,
            "stop_reason": stop,
            "stop_sequence": None,
            "usage": turn.usage.as_dict(),
        }

    def _wait(self, seconds: float) -> None:
        self._stopping.wait(seconds)


def sse_events(message: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    """The (event, data) pairs the real API streams for a complete `message`.

    message_start carries the input-side usage and output_tokens 1; message_delta carries the
    final, cumulative usage (the API reports all four counts there too) and the stop reason.
    """
    usage = message["usage"]
    start_usage = {**usage, "output_tokens": 1}
    yield (
        "message_start",
        {
            "type": "message_start",
            "message": {**message, "content": [], "stop_reason": None, "usage": start_usage},
        },
    )
    for index, block in enumerate(message["content"]):
        if block["type"] == "text":
            yield (
                "content_block_start",
                {
                    "type": "content_block_start",
                    "index": index,
                    "content_block": {"type": "text", "text": ""},
                },
            )
            yield "ping", {"type": "ping"}
            for piece in _chunks(block["text"]):
                yield (
                    "content_block_delta",
                    {
                        "type": "content_block_delta",
                        "index": index,
                        "delta": {"type": "text_delta", "text": piece},
                    },
                )
        else:
            yield (
                "content_block_start",
                {
                    "type": "content_block_start",
                    "index": index,
                    "content_block": {
                        "type": "tool_use",
                        "id": block["id"],
                        "name": block["name"],
                        "input": {},
                    },
                },
            )
            yield (
                "content_block_delta",
                {
                    "type": "content_block_delta",
                    "index": index,
                    "delta": {"type": "input_json_delta", "partial_json": ""},
                },
            )
            for piece in _chunks(json.dumps(block["input"])):
                yield (
                    "content_block_delta",
                    {
                        "type": "content_block_delta",
                        "index": index,
                        "delta": {"type": "input_json_delta", "partial_json": piece},
                    },
                )
        yield "content_block_stop", {"type": "content_block_stop", "index": index}
    yield (
        "message_delta",
        {
            "type": "message_delta",
            "delta": {"stop_reason": message["stop_reason"], "stop_sequence": None},
            "usage": usage,
        },
    )
    yield "message_stop", {"type": "message_stop"}


def _chunks(value: str, size: int = 40) -> list[str]:
    return [value[i : i + size] for i in range(0, len(value), size)] or [""]


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        if not isinstance(sys.exc_info()[1], ConnectionError):  # a client hanging up is normal
            super().handle_error(request, client_address)


def _handler_for(server: FakeAnthropic) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:
            pass  # the recorded requests are the log

        def do_GET(self) -> None:
            self._record(None, None)
            self._not_found()

        def do_HEAD(self) -> None:
            self._record(None, None)
            self._send_json(200, {})

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length).decode("utf-8", "replace")
            try:
                body: Any = json.loads(raw) if raw else {}
            except ValueError:
                body = raw
            path = self.path.split("?", 1)[0]
            if path == "/v1/messages/count_tokens" and isinstance(body, dict):
                self._record(body, None)
                self._send_json(200, {"input_tokens": len(raw) // 4})
            elif path == "/v1/messages" and isinstance(body, dict):
                self._messages(body)
            else:
                self._record(body, None)
                self._not_found()

        def _messages(self, body: dict[str, Any]) -> None:
            if body.get("tools"):
                index, turn = server._conversation_turn()
                self._record(body, index)
                server._wait(turn.delay)
                if server.stopped:
                    self.close_connection = True  # hang up unanswered, as a dying server would
                    return
            else:
                self._record(body, None)
                turn = Turn((text("Scripted side reply."),), server.side_usage)
            message = server._message(body, turn)
            if body.get("stream"):
                self._stream(message)
            else:
                self._send_json(200, message)

        def _record(self, body: Any, turn: int | None) -> None:
            server._record(
                RecordedRequest(self.command, self.path, dict(self.headers.items()), body, turn)
            )

        def _stream(self, message: dict[str, Any]) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Cache-Control", "no-cache")
            self.send_header("request-id", f"req_fake{next(server._ids):06d}")
            self.send_header("Connection", "close")
            self.end_headers()
            for event, data in sse_events(message):
                self.wfile.write(f"event: {event}\ndata: {json.dumps(data)}\n\n".encode())
                self.wfile.flush()
            self.close_connection = True

        def _not_found(self) -> None:
            self._send_json(
                404,
                {"type": "error", "error": {"type": "not_found_error", "message": "not found"}},
            )

        def _send_json(self, status: int, payload: dict[str, Any]) -> None:
            data = json.dumps(payload).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.send_header("request-id", f"req_fake{next(server._ids):06d}")
            self.end_headers()
            self.wfile.write(data)

    return Handler
