"""Anthropic Messages API (`POST /v1/messages`): the endpoints the meter forwards, and the usage
of one answer, JSON or streamed.

A streamed answer's `message_start` carries the input-side counts (and output_tokens 1); its
`message_delta` the final, cumulative ones. Anthropic's `input_tokens` already excludes cache
reads and writes, which is what SpecSnap's `input` means.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from specsnap.metering.counts import has_counts, merge_max
from specsnap.metering.endpoints import SEGMENT, Endpoint, any_value
from specsnap.scorecard.model import Tokens

#: Claude Code asks with `?beta=true`. Token counting and the model list are free; Message
#: Batches, files and the legacy `/v1/complete` are not here, so they are refused.
BETA = {"beta": frozenset({"true"})}
ENDPOINTS = (
    Endpoint("POST", "/v1/messages", billed=True, query=BETA),
    Endpoint("POST", "/v1/messages/count_tokens", billed=False, query=BETA),
    Endpoint(
        "GET",
        f"/v1/models(/{SEGMENT})?",
        billed=False,
        query={**BETA, **any_value("limit", "after_id", "before_id")},
    ),
)

FIELDS = (
    "input_tokens",
    "output_tokens",
    "cache_creation_input_tokens",
    "cache_read_input_tokens",
)


def usage(objects: Iterable[Mapping[str, Any]]) -> Tokens | None:
    """The answer's usage, or None when no object of it carried any."""
    merged: dict[str, int] = {}
    for event in objects:
        kind = event.get("type")
        if kind == "message_start":
            found = (event.get("message") or {}).get("usage")
        elif kind in ("message_delta", "message"):
            found = event.get("usage")
        else:
            continue
        if has_counts(found, FIELDS):
            merge_max(merged, found, FIELDS)
    if not merged:
        return None
    return Tokens(
        merged.get("input_tokens", 0),
        merged.get("output_tokens", 0),
        merged.get("cache_creation_input_tokens", 0),
        merged.get("cache_read_input_tokens", 0),
        "metered",
    )


def prepare(path: str, body: Any) -> Any:
    """Anthropic always reports usage; requests pass unchanged."""
    return body
