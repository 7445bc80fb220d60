"""The body formats model APIs answer in, parsed tolerantly: a cut-off answer is read as far as
it arrived (torn lines and a missing end are skipped, never an error)."""

from __future__ import annotations

import json
from typing import Any

_DECODER = json.JSONDecoder()


def sse_events(body: bytes) -> list[dict[str, Any]]:
    """The JSON objects of a server-sent-event stream's `data:` lines ([DONE] and torn lines are
    skipped). An event's data may span several `data:` lines; they are joined as SSE says."""
    events: list[dict[str, Any]] = []
    data: list[bytes] = []
    for line in [*body.splitlines(), b""]:
        if line.startswith(b"data:"):
            data.append(line[5:].strip())
        elif not line.strip() and data:
            _append_json(events, b"\n".join(data))
            data = []
    return events


def json_objects(body: bytes) -> list[dict[str, Any]]:
    """The objects of a JSON answer: one object, or a JSON array of objects as Gemini streams it
    (`[{…},\\r\\n{…}]`), of which a cut-off prefix yields every object that arrived whole."""
    text = body.decode("utf-8", "replace").lstrip()
    if text.startswith("{"):
        found: list[dict[str, Any]] = []
        _append_json(found, text.encode())
        return found
    if not text.startswith("["):
        return []
    objects: list[dict[str, Any]] = []
    position = 1
    while position < len(text):
        while position < len(text) and text[position] in " \t\r\n,":
            position += 1
        if position >= len(text) or text[position] == "]":
            break
        try:
            value, position = _DECODER.raw_decode(text, position)
        except ValueError:
            break  # the rest was cut off mid-object
        if isinstance(value, dict):
            objects.append(value)
    return objects


def answer_objects(body: bytes, content_type: str) -> list[dict[str, Any]]:
    """Every JSON object of an answer, whatever its framing (SSE, JSON, or a JSON array)."""
    if "text/event-stream" in content_type or body.lstrip().startswith((b"data:", b"event:")):
        return sse_events(body)
    return json_objects(body)


def _append_json(into: list[dict[str, Any]], raw: bytes) -> None:
    try:
        value = json.loads(raw)
    except ValueError:
        return
    if isinstance(value, dict):
        into.append(value)
