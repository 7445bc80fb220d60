"""A scripted, offline stand-in for the Gemini API (`/v1beta/models/MODEL:ACTION`).

`:streamGenerateContent` answers as server-sent events with `alt=sse` (what Gemini CLI asks
for), else as a JSON array sent piece by piece; `:generateContent` as one JSON body;
`:countTokens` with a rough count. Each streamed chunk carries `usageMetadata`, the prompt count
early and the full counts in the last chunk, as the real API does. Tool calls are
`functionCall` parts of the CLI's own tools (`write_file(path, content)`,
`run_shell_command(command)`). Requests without tools are side requests; one that asks for
JSON (`responseMimeType`) gets a JSON reply that tells Gemini CLI the user speaks next.

Usage is scripted in SpecSnap's terms (fake_model.Usage): `promptTokenCount` = input + cache
read, `cachedContentTokenCount` = cache read, `candidatesTokenCount` = output. Gemini has no
cache-write figure: scripts leave it 0.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from typing import Any

from tests.support.fake_model import (
    Block,
    Handler,
    ScriptedServer,
    Turn,
    Usage,
    chunks,
    text,
    tool_use,
)

__all__ = ["FakeGemini", "Turn", "Usage", "run_shell_command", "text", "write_file"]

MODEL = "gemini-fake-1"
SIDE_USAGE = Usage(input_tokens=17, output_tokens=6)
NEXT_SPEAKER = json.dumps({"reasoning": "The model finished its turn.", "next_speaker": "user"})


def write_file(file_path: str, content: str) -> Block:
    return tool_use("write_file", file_path=file_path, content=content)


def run_shell_command(command: str, description: str = "Run a command") -> Block:
    return tool_use("run_shell_command", command=command, description=description)


def usage_metadata(usage: Usage, final: bool = True) -> dict[str, Any]:
    prompt = usage.input_tokens + usage.cache_read_input_tokens
    metadata: dict[str, Any] = {"promptTokenCount": prompt}
    if final:
        metadata |= {
            "candidatesTokenCount": usage.output_tokens,
            "totalTokenCount": prompt + usage.output_tokens,
        }
        if usage.cache_read_input_tokens:
            metadata["cachedContentTokenCount"] = usage.cache_read_input_tokens
    return metadata


class FakeGemini(ScriptedServer):
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

    def __enter__(self) -> FakeGemini:
        self.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    def answer(self, handler: Handler, path: str, body: Any) -> None:
        action = path.rsplit(":", 1)[-1] if ":" in path else ""
        if not isinstance(body, dict) or handler.command != "POST":
            handler.record(body, None)
            handler.send_error_json(404, "not found")
        elif action == "countTokens":
            handler.record(body, None)
            self.send_json_body(
                handler, Turn((), Usage()), None, {"totalTokens": len(json.dumps(body)) // 4}
            )
        elif action in ("generateContent", "streamGenerateContent"):
            self._generate(handler, body, action == "streamGenerateContent")
        else:
            handler.record(body, None)
            handler.send_error_json(404, "not found")

    def _generate(self, handler: Handler, body: dict[str, Any], stream: bool) -> None:
        index: int | None = None
        if body.get("tools"):
            index, turn = self.conversation_turn()
            handler.record(body, index)
            if not self.hold(turn):
                handler.close_connection = True
                return
        else:
            handler.record(body, None)
            config = body.get("generationConfig") or {}
            wants_json = config.get("responseMimeType") == "application/json"
            turn = self.side_turn(NEXT_SPEAKER if wants_json else "Scripted side reply.")
        self.serve_usage(turn.usage)
        pieces = list(self._chunks(turn))
        if not stream:
            self.send_json_body(handler, turn, index, _merged(pieces))
        elif "alt=sse" in handler.path:
            frames = (f"data: {json.dumps(piece)}\r\n\r\n" for piece in pieces)
            self.stream_sse(handler, turn, index, frames)
        else:
            handler.send_response(200)
            handler.send_header("Content-Type", "application/json")
            handler.send_header("Connection", "close")
            handler.end_headers()
            framed = [("[" if i == 0 else ",\r\n") + json.dumps(p) for i, p in enumerate(pieces)]
            self.send_parts(handler, turn, index, (f.encode() for f in [*framed, "]"]))
            handler.close_connection = True

    def _chunks(self, turn: Turn) -> Iterator[dict[str, Any]]:
        parts: list[dict[str, Any]] = []
        for block in turn.blocks:
            if block.type == "text":
                parts += [{"text": piece} for piece in chunks(block.text)]
            else:
                parts.append({"functionCall": {"name": block.name, "args": block.input}})
        parts = parts or [{"text": ""}]
        for position, part in enumerate(parts):
            last = position == len(parts) - 1
            candidate: dict[str, Any] = {"content": {"role": "model", "parts": [part]}, "index": 0}
            if last:
                candidate["finishReason"] = "STOP"
            yield {
                "candidates": [candidate],
                "usageMetadata": usage_metadata(turn.usage, final=last),
                "modelVersion": MODEL,
            }


def _merged(pieces: list[dict[str, Any]]) -> dict[str, Any]:
    """One generateContent answer from the stream's chunks."""
    parts = [p for piece in pieces for p in piece["candidates"][0]["content"]["parts"]]
    last = pieces[-1]
    candidate = {**last["candidates"][0], "content": {"role": "model", "parts": parts}}
    return {**last, "candidates": [candidate]}
