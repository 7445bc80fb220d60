"""Gemini API (`:generateContent`, `:streamGenerateContent`): usage of one answer.

`usageMetadata.promptTokenCount` includes `cachedContentTokenCount`; `toolUsePromptTokenCount`
is input too, and `thoughtsTokenCount` is billed as output beside `candidatesTokenCount`.
A stream (SSE with `alt=sse`, else a JSON array sent piece by piece) repeats the metadata in
its chunks, cumulatively: per field, the largest value counts.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from specsnap.metering.counts import has_counts, merge_max
from specsnap.tokens import TokenUsage

FIELDS = (
    "promptTokenCount",
    "cachedContentTokenCount",
    "candidatesTokenCount",
    "thoughtsTokenCount",
    "toolUsePromptTokenCount",
)


def usage(objects: Iterable[Mapping[str, Any]]) -> TokenUsage | None:
    """The answer's usage, or None when no chunk carried any."""
    merged: dict[str, int] = {}
    for chunk in objects:
        found = chunk.get("usageMetadata")
        if has_counts(found, FIELDS):
            merge_max(merged, found, FIELDS)
    if not merged:
        return None
    cached = merged.get("cachedContentTokenCount", 0)
    return TokenUsage(
        max(0, merged.get("promptTokenCount", 0) - cached)
        + merged.get("toolUsePromptTokenCount", 0),
        merged.get("candidatesTokenCount", 0) + merged.get("thoughtsTokenCount", 0),
        0,
        cached,
        "metered",
    )


def prepare(path: str, body: Any) -> Any:
    """Gemini always reports usage; requests pass unchanged."""
    return body
