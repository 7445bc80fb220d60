"""A scripted, offline stand-in for the Anthropic Messages API, for driving real agent CLIs.

The server answers `POST /v1/messages` the way the real API does, streaming (server-sent events:
message_start, content_block_start/delta/stop, message_delta, message_stop) or as one JSON body.
What all scripted servers share (scripts, side requests, key checks, stalls, recording, idle
stop) is in fake_model.py. Only requests that offer tools (the agent's main loop) advance the
script; side requests (a session title, a quota probe: no tools) get `side_usage`.

A cutoff test scripts turn 1 as a `write_file()` of a .py file and gives turn 2 a long `delay`:
the CLI writes the file, asks for turn 2 (`turns_served == 2` proves the write is done and
turn 1's usage is on stdout) and waits there while SpecSnap cuts the session off.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from typing import Any

from tests.support.fake_model import (
    Block,
    Handler,
    RecordedRequest,
    ScriptedServer,
    Turn,
    Usage,
    chunks,
    text,
    tool_use,
)

__all__ = [
    "MODEL",
    "Block",
    "FakeAnthropic",
    "RecordedRequest",
    "Turn",
    "Usage",
    "bash",
    "sse_events",
    "text",
    "tool_use",
    "write_file",
]

MODEL = "claude-fake-1"
SIDE_USAGE = Usage(input_tokens=11, output_tokens=3)


def write_file(file_path: str, content: str) -> Block:
    """Claude Code's Write tool (the path must be absolute)."""
    return tool_use("Write", file_path=file_path, content=content)


def bash(command: str, description: str = "Run a command") -> Block:
    """Claude Code's Bash tool."""
    return tool_use("Bash", command=command, description=description)


class FakeAnthropic(ScriptedServer):
    """The server. `script` is served in order; `final` answers every conversation turn after."""

    def __init__(
        self,
        script: Sequence[Turn],
        *,
        final: Turn | None = None,
        side_usage: Usage = SIDE_USAGE,
        api_key: str | None = None,
        idle_timeout: float = 120.0,
    ) -> None:
        super().__init__(
            script,
            final=final or Turn((text("Done."),), Usage(input_tokens=50, output_tokens=5)),
            side_usage=side_usage,
            api_key=api_key,
            idle_timeout=idle_timeout,
        )

    def __enter__(self) -> FakeAnthropic:
        self.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    def answer(self, handler: Handler, path: str, body: Any) -> None:
        if handler.command == "HEAD":
            handler.record(body, None)
            handler.send_error_json(200, "ok")
        elif path == "/v1/messages/count_tokens" and isinstance(body, dict):
            handler.record(body, None)
            data = {"input_tokens": len(json.dumps(body)) // 4}
            self.send_json_body(handler, Turn((), Usage()), None, data)
        elif path == "/v1/messages" and isinstance(body, dict):
            self._messages(handler, body)
        else:
            handler.record(body, None)
            handler.send_error_json(404, "not found")

    def _messages(self, handler: Handler, body: dict[str, Any]) -> None:
        index: int | None = None
        if body.get("tools"):
            index, turn = self.conversation_turn()
            handler.record(body, index)
            if not self.hold(turn):
                handler.close_connection = True  # hang up unanswered, as a dying server would
                return
        else:
            handler.record(body, None)
            turn = self.side_turn()
        message = self.message(body, turn)
        if body.get("stream"):
            self.stream_sse(handler, turn, index, _framed(sse_events(message)))
        else:
            self.send_json_body(handler, turn, index, message)

    def message(self, body: dict[str, Any], turn: Turn) -> dict[str, Any]:
        content: list[dict[str, Any]] = []
        for block in turn.blocks:
            if block.type == "text":
                content.append({"type": "text", "text": block.text})
            else:
                tool_id = f"toolu_fake{next(self.ids):06d}"
                content.append(
                    {"type": "tool_use", "id": tool_id, "name": block.name, "input": block.input}
                )
        self.serve_usage(turn.usage)
        stop = "tool_use" if any(b.type == "tool_use" for b in turn.blocks) else "end_turn"
        return {
            "id": f"msg_fake{next(self.ids):06d}",
            "type": "message",
            "role": "assistant",
            "model": body.get("model") or MODEL,
            "content": content,
            "stop_reason": stop,
            "stop_sequence": None,
            "usage": turn.usage.as_dict(),
        }


def _framed(events: Iterator[tuple[str, dict[str, Any]]]) -> Iterator[str]:
    for event, data in events:
        yield f"event: {event}\ndata: {json.dumps(data)}\n\n"


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
            for piece in chunks(block["text"]):
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
            for piece in chunks(json.dumps(block["input"])):
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
