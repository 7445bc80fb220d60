"""The tool calls of one model answer and the tool results of one request, in every format the
meter forwards: Anthropic `tool_use`, OpenAI chat `tool_calls`, Responses `function_call` /
`custom_tool_call`, Gemini `functionCall`. A cut-off answer yields the calls that began in it,
with arguments read as far as they arrived."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

#: How much of one argument value or tool result is kept: a record stays bounded in size.
VALUE_CHARS = 2000


@dataclass(frozen=True)
class ToolCall:
    """One tool call as the model asked for it."""

    call_id: str
    name: str
    arguments: dict[str, Any]


def answer_calls(objects: Iterable[Mapping[str, Any]]) -> list[ToolCall]:
    """The tool calls of an answer's JSON objects (a whole answer or a stream's events)."""
    pending: dict[tuple[str, int | str], dict[str, Any]] = {}
    for value in objects:
        for key, part in _parts(value):
            slot = pending.setdefault(key, {"id": "", "name": "", "args": "", "object": None})
            slot["id"] = part.get("id") or slot["id"]
            slot["name"] = part.get("name") or slot["name"]
            if isinstance(part.get("object"), dict):
                slot["object"] = part["object"]
            if part.get("replace") is not None:
                slot["args"] = part["replace"]
            slot["args"] += part.get("append", "")
    return [
        ToolCall(slot["id"] or f"call-{n}", slot["name"], _arguments(slot))
        for n, slot in enumerate(pending.values(), 1)
        if slot["name"]
    ]


def request_results(body: Any) -> dict[str, str]:
    """The tool results a request hands back to the model, by the call id they answer (Gemini
    names no id: its results are keyed by the function's name)."""
    results: dict[str, str] = {}
    if not isinstance(body, dict):
        return results
    for message in _list(body.get("messages")) + _list(body.get("input")):
        if not isinstance(message, dict):
            continue
        if message.get("role") == "tool":  # OpenAI chat
            results[str(message.get("tool_call_id"))] = _text(message.get("content"))
        if message.get("type") in ("function_call_output", "custom_tool_call_output"):
            results[str(message.get("call_id"))] = _text(message.get("output"))
        for block in _list(message.get("content")):
            if isinstance(block, dict) and block.get("type") == "tool_result":
                results[str(block.get("tool_use_id"))] = _text(block.get("content"))
    for content in _list(body.get("contents")):
        for part in _list(content.get("parts") if isinstance(content, dict) else None):
            answer = part.get("functionResponse") if isinstance(part, dict) else None
            if isinstance(answer, dict):
                key = str(answer.get("id") or answer.get("name"))
                results[key] = _text(answer.get("response"))
    return results


def _parts(value: Mapping[str, Any]) -> Iterable[tuple[tuple[str, int | str], dict[str, Any]]]:
    """(slot key, piece) for every piece of a tool call in one object of an answer."""
    kind = value.get("type")
    # Anthropic: a whole message, or a stream's content blocks and their JSON deltas.
    if kind == "message":
        for n, block in enumerate(_list(value.get("content"))):
            if isinstance(block, dict) and block.get("type") == "tool_use":
                yield ("a", n), {**block, "object": block.get("input")}
    if kind == "content_block_start":
        block = value.get("content_block") or {}
        if block.get("type") == "tool_use":
            yield ("a", value.get("index", 0)), {"id": block.get("id"), "name": block.get("name")}
    if kind == "content_block_delta":
        delta = value.get("delta") or {}
        if delta.get("type") == "input_json_delta":
            yield ("a", value.get("index", 0)), {"append": delta.get("partial_json", "")}
    # OpenAI chat: a whole answer's message or a stream's deltas, per tool call index.
    for choice in _list(value.get("choices"))[:1]:
        said = choice.get("message") or choice.get("delta") or {}
        for n, call in enumerate(_list(said.get("tool_calls"))):
            function = call.get("function") or {}
            piece = {"id": call.get("id"), "name": function.get("name")}
            yield ("c", call.get("index", n)), {**piece, "append": function.get("arguments") or ""}
    # OpenAI Responses: the output items of a whole (or finished) response, or a stream's.
    response = value.get("response") if kind and str(kind).startswith("response.") else value
    if isinstance(response, dict) and kind in (
        None,
        "response",
        "response.completed",
        "response.incomplete",
        "response.failed",
    ):
        for n, item in enumerate(_list(response.get("output"))):
            yield from _response_item(n, item)
    if kind in ("response.output_item.added", "response.output_item.done"):
        yield from _response_item(value.get("output_index", 0), value.get("item"))
    if kind in ("response.function_call_arguments.delta", "response.custom_tool_call_input.delta"):
        yield ("r", value.get("output_index", 0)), {"append": value.get("delta", "")}
    # Gemini: function calls in the first candidate's parts, each one whole.
    for candidate in _list(value.get("candidates"))[:1]:
        for part in _list((candidate.get("content") or {}).get("parts")):
            call = part.get("functionCall") if isinstance(part, dict) else None
            if isinstance(call, dict):
                key = ("g", f"{call.get('id') or call.get('name')}#{id(part)}")
                yield (
                    key,
                    {
                        "id": call.get("id"),
                        "name": call.get("name"),
                        "object": call.get("args") or {},
                    },
                )


def _response_item(index: int, item: Any) -> Iterable[tuple[tuple[str, int | str], dict[str, Any]]]:
    if not isinstance(item, dict) or item.get("type") not in ("function_call", "custom_tool_call"):
        return
    text = item.get("arguments") if item["type"] == "function_call" else item.get("input")
    piece: dict[str, Any] = {"id": item.get("call_id") or item.get("id"), "name": item.get("name")}
    if text:  # a finished item's full arguments replace the deltas that built them
        piece["replace"] = text if item["type"] == "function_call" else json.dumps({"input": text})
    yield ("r", index), piece


def _arguments(slot: Mapping[str, Any]) -> dict[str, Any]:
    """The call's arguments, each string value bounded; torn JSON is kept as `partial`."""
    found = slot["object"]
    if found is None and slot["args"]:
        try:
            found = json.loads(slot["args"])
        except ValueError:
            found = {"partial": slot["args"]}
    if not isinstance(found, dict):
        found = {} if found is None else {"value": found}
    return {str(k): _bounded(v) for k, v in found.items()}


def _bounded(value: Any) -> Any:
    if isinstance(value, str):
        return value[:VALUE_CHARS]
    text = json.dumps(value)
    return value if len(text) <= VALUE_CHARS else text[:VALUE_CHARS]


def _text(value: Any) -> str:
    if isinstance(value, str):
        return value[:VALUE_CHARS]
    if isinstance(value, list):
        texts = [b.get("text", "") for b in value if isinstance(b, dict)]
        return "\n".join(t for t in texts if isinstance(t, str))[:VALUE_CHARS]
    return json.dumps(value)[:VALUE_CHARS]


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []
