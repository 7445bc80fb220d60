"""A scripted, offline stand-in for the OpenAI API: Chat Completions and Responses.

- `POST /v1/chat/completions`, as one JSON body or streamed (chunks, and the usage chunk when
  the request asks for it with `stream_options.include_usage`). Aider talks to it.
- `POST /v1/responses`, as one JSON body or streamed (`response.created` … `response.completed`,
  whose response carries the usage). Codex talks to it. With `background: true` it answers at
  once, as the real API does, with the response queued and `usage: null` (the tokens are still
  served, and billed, as the model works on it).

Tool calls are function calls of the CLI's own tools (`tool_use(name, **arguments)`; Codex's
shell tool: `exec_command(cmd)`). What all scripted servers share (scripts, key checks, stalls,
recording, idle stop) is in fake_model.py. Side requests: Responses requests without tools, and
Chat Completions requests whose system message asks for a commit message or a summary (aider's
own calls).

Usage is scripted in SpecSnap's terms (fake_model.Usage); OpenAI counts cached tokens inside
the input, so `prompt_tokens`/`input_tokens` = input + cache read, `cached_tokens` = cache read.
OpenAI has no cache-write figure: scripts leave it 0.
"""

from __future__ import annotations

import json
import time
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

__all__ = ["FakeOpenAI", "Turn", "Usage", "exec_command", "text", "tool_use"]

MODEL = "gpt-fake-1"
SIDE_USAGE = Usage(input_tokens=13, output_tokens=4)
SIDE_MARKERS = ("commit message", "summar")


def exec_command(cmd: str) -> Block:
    """Codex's shell tool."""
    return tool_use("exec_command", cmd=cmd)


def chat_usage(usage: Usage) -> dict[str, Any]:
    prompt = usage.input_tokens + usage.cache_read_input_tokens
    return {
        "prompt_tokens": prompt,
        "completion_tokens": usage.output_tokens,
        "total_tokens": prompt + usage.output_tokens,
        "prompt_tokens_details": {"cached_tokens": usage.cache_read_input_tokens},
    }


def responses_usage(usage: Usage) -> dict[str, Any]:
    prompt = usage.input_tokens + usage.cache_read_input_tokens
    return {
        "input_tokens": prompt,
        "input_tokens_details": {"cached_tokens": usage.cache_read_input_tokens},
        "output_tokens": usage.output_tokens,
        "output_tokens_details": {"reasoning_tokens": 0},
        "total_tokens": prompt + usage.output_tokens,
    }


class FakeOpenAI(ScriptedServer):
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

    def __enter__(self) -> FakeOpenAI:
        self.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    def answer(self, handler: Handler, path: str, body: Any) -> None:
        if not isinstance(body, dict) or handler.command != "POST":
            handler.record(body, None)
            handler.send_error_json(404, "not found")
        elif path.endswith("/chat/completions"):
            self._turn(handler, body, _is_chat_side(body), self._chat)
        elif path.endswith("/responses"):
            self._turn(handler, body, not body.get("tools"), self._responses)
        else:
            handler.record(body, None)
            handler.send_error_json(404, "not found")

    def _turn(self, handler: Handler, body: dict[str, Any], side: bool, send: Any) -> None:
        index: int | None = None
        if side:
            handler.record(body, None)
            turn = self.side_turn("Add greet")
        else:
            index, turn = self.conversation_turn()
            handler.record(body, index)
            if not self.hold(turn):
                handler.close_connection = True
                return
        self.serve_usage(turn.usage)
        send(handler, body, turn, index)

    # --- Chat Completions ---

    def _chat(self, handler: Handler, body: dict[str, Any], turn: Turn, index: int | None) -> None:
        ident = f"chatcmpl-fake{next(self.ids):06d}"
        model = body.get("model") or MODEL
        content = "".join(b.text for b in turn.blocks if b.type == "text")
        calls = [
            {
                "id": f"call_fake{next(self.ids):06d}",
                "type": "function",
                "function": {"name": b.name, "arguments": json.dumps(b.input)},
            }
            for b in turn.blocks
            if b.type == "tool_use"
        ]
        finish = "tool_calls" if calls else "stop"
        if not body.get("stream"):
            message: dict[str, Any] = {"role": "assistant", "content": content or None}
            if calls:
                message["tool_calls"] = calls
            payload = {
                "id": ident,
                "object": "chat.completion",
                "created": int(time.time()),
                "model": model,
                "choices": [{"index": 0, "message": message, "finish_reason": finish}],
                "usage": chat_usage(turn.usage),
            }
            self.send_json_body(handler, turn, index, payload)
            return
        with_usage = (body.get("stream_options") or {}).get("include_usage") is True

        def chunk(delta: dict[str, Any], finish_reason: str | None = None) -> str:
            data = {
                "id": ident,
                "object": "chat.completion.chunk",
                "model": model,
                "choices": [{"index": 0, "delta": delta, "finish_reason": finish_reason}],
            }
            return f"data: {json.dumps(data)}\n\n"

        def events() -> Iterator[str]:
            yield chunk({"role": "assistant", "content": ""})
            for piece in chunks(content) if content else []:
                yield chunk({"content": piece})
            for position, call in enumerate(calls):
                yield chunk({"tool_calls": [{"index": position, **call}]})
            yield chunk({}, finish)
            if with_usage:
                data = {
                    "id": ident,
                    "object": "chat.completion.chunk",
                    "model": model,
                    "choices": [],
                    "usage": chat_usage(turn.usage),
                }
                yield f"data: {json.dumps(data)}\n\n"
            yield "data: [DONE]\n\n"

        self.stream_sse(handler, turn, index, events())

    # --- Responses ---

    def _responses(
        self, handler: Handler, body: dict[str, Any], turn: Turn, index: int | None
    ) -> None:
        items = [self._item(block) for block in turn.blocks]
        response = {
            "id": f"resp_fake{next(self.ids):06d}",
            "object": "response",
            "created_at": int(time.time()),
            "status": "completed",
            "model": body.get("model") or MODEL,
            "output": items,
            "usage": responses_usage(turn.usage),
        }
        if body.get("background") is True and not body.get("stream"):
            queued = {**response, "status": "queued", "output": [], "usage": None}
            self.send_json_body(handler, turn, index, queued)
            return
        if not body.get("stream"):
            self.send_json_body(handler, turn, index, response)
            return

        def event(kind: str, **data: Any) -> str:
            return f"event: {kind}\ndata: {json.dumps({'type': kind, **data})}\n\n"

        def events() -> Iterator[str]:
            started = {**response, "status": "in_progress", "output": [], "usage": None}
            yield event("response.created", response=started)
            yield event("response.in_progress", response=started)
            for position, item in enumerate(items):
                if item["type"] == "message":
                    empty = {**item, "content": [], "status": "in_progress"}
                    yield event("response.output_item.added", output_index=position, item=empty)
                    part = {"type": "output_text", "text": "", "annotations": []}
                    yield event(
                        "response.content_part.added",
                        item_id=item["id"],
                        output_index=position,
                        content_index=0,
                        part=part,
                    )
                    full = item["content"][0]["text"]
                    for piece in chunks(full):
                        yield event(
                            "response.output_text.delta",
                            item_id=item["id"],
                            output_index=position,
                            content_index=0,
                            delta=piece,
                        )
                    yield event(
                        "response.output_text.done",
                        item_id=item["id"],
                        output_index=position,
                        content_index=0,
                        text=full,
                    )
                    yield event(
                        "response.content_part.done",
                        item_id=item["id"],
                        output_index=position,
                        content_index=0,
                        part={**part, "text": full},
                    )
                else:
                    added = {**item, "arguments": "", "status": "in_progress"}
                    yield event("response.output_item.added", output_index=position, item=added)
                    yield event(
                        "response.function_call_arguments.delta",
                        item_id=item["id"],
                        output_index=position,
                        delta=item["arguments"],
                    )
                    yield event(
                        "response.function_call_arguments.done",
                        item_id=item["id"],
                        output_index=position,
                        arguments=item["arguments"],
                    )
                yield event("response.output_item.done", output_index=position, item=item)
            yield event("response.completed", response=response)

        self.stream_sse(handler, turn, index, events())

    def _item(self, block: Block) -> dict[str, Any]:
        if block.type == "text":
            return {
                "type": "message",
                "id": f"msg_fake{next(self.ids):06d}",
                "status": "completed",
                "role": "assistant",
                "content": [{"type": "output_text", "text": block.text, "annotations": []}],
            }
        return {
            "type": "function_call",
            "id": f"fc_fake{next(self.ids):06d}",
            "call_id": f"call_fake{next(self.ids):06d}",
            "name": block.name,
            "arguments": json.dumps(block.input),
            "status": "completed",
        }


def _is_chat_side(body: dict[str, Any]) -> bool:
    """Aider's own calls (commit messages, chat summaries): no tools, and a system message
    that asks for one."""
    if body.get("tools"):
        return False
    messages = body.get("messages") or []
    system = " ".join(
        str(m.get("content")) for m in messages if isinstance(m, dict) and m.get("role") == "system"
    ).lower()
    return any(marker in system for marker in SIDE_MARKERS)
