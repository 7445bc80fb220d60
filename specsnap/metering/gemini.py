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
from specsnap.metering.endpoints import SEGMENT, Endpoint, any_value
from specsnap.scorecard.model import Tokens

_MODEL = f"/v1(alpha|beta)?/models/{SEGMENT}"
#: `alt=sse` or `alt=json` only: `alt=proto` answers in a form the meter does not read, and a
#: field mask (`$fields`, `fields`, `x-goog-fieldmask`) could leave the usage out. Cached
#: contents, files, batches and embeddings are not here, so they are refused.
ALT = {"alt": frozenset({"sse", "json"})}
ENDPOINTS = (
    Endpoint("POST", _MODEL + ":generateContent", billed=True, query=ALT),
    Endpoint("POST", _MODEL + ":streamGenerateContent", billed=True, query=ALT),
    Endpoint("POST", _MODEL + ":countTokens", billed=False, query=ALT),
    Endpoint(
        "GET",
        f"/v1(alpha|beta)?/models(/{SEGMENT})?",
        billed=False,
        query=any_value("pageSize", "pageToken"),
    ),
)

FIELDS = (
    "promptTokenCount",
    "cachedContentTokenCount",
    "candidatesTokenCount",
    "thoughtsTokenCount",
    "toolUsePromptTokenCount",
)


def usage(objects: Iterable[Mapping[str, Any]]) -> Tokens | None:
    """The answer's usage, or None when no chunk carried any."""
    merged: dict[str, int] = {}
    for chunk in objects:
        found = chunk.get("usageMetadata")
        if has_counts(found, FIELDS):
            merge_max(merged, found, FIELDS)
    if not merged:
        return None
    cached = merged.get("cachedContentTokenCount", 0)
    return Tokens(
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
