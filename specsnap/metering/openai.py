"""OpenAI Chat Completions (`/chat/completions`) and Responses (`/responses`): usage of one answer.

Both count cached tokens inside the input (`prompt_tokens` / `input_tokens`) and reasoning tokens
inside the output; SpecSnap's `input` excludes cache reads, so they are subtracted.

- Chat Completions: the JSON answer's `usage`; a stream reports usage only when asked
  (`stream_options.include_usage`), in a last chunk with empty `choices`. The meter asks for it
  when the agent did not: a chunk without choices is part of the documented stream.
- Responses: the JSON answer's `usage`; a stream's `response.completed` (or `.incomplete`,
  `.failed`) event carries the response with its usage.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from specsnap.metering.counts import count, has_counts
from specsnap.metering.endpoints import SEGMENT, Endpoint
from specsnap.scorecard.model import Tokens

#: Paths under the base URL (`…/v1`). Legacy `/completions`, batches, files, embeddings and a
#: stored response fetched again are not here, so they are refused.
ENDPOINTS = (
    Endpoint("POST", "/chat/completions", billed=True),
    Endpoint("POST", "/responses", billed=True),
    Endpoint("GET", f"/models(/{SEGMENT})?", billed=False),
)

CHAT_FIELDS = ("prompt_tokens", "completion_tokens")
RESPONSES_FIELDS = ("input_tokens", "output_tokens")


def usage(objects: Iterable[Mapping[str, Any]]) -> Tokens | None:
    """The answer's usage (the last report in it wins: each one is cumulative)."""
    last: Tokens | None = None
    for value in objects:
        found = _usage_of(value)
        if found is not None:
            last = found
    return last


def _usage_of(value: Mapping[str, Any]) -> Tokens | None:
    reported = value.get("usage")
    response = value.get("response")
    if not has_counts(reported, (*CHAT_FIELDS, *RESPONSES_FIELDS)) and isinstance(response, dict):
        reported = response.get("usage")  # a Responses stream event wraps the response
    if has_counts(reported, CHAT_FIELDS):
        details = reported.get("prompt_tokens_details") or {}
        prompt, output = count(reported.get("prompt_tokens")), reported.get("completion_tokens")
    elif has_counts(reported, RESPONSES_FIELDS):
        details = reported.get("input_tokens_details") or {}
        prompt, output = count(reported.get("input_tokens")), reported.get("output_tokens")
    else:
        return None
    cached = count(details.get("cached_tokens")) if isinstance(details, dict) else 0
    return Tokens(max(0, prompt - cached), count(output), 0, cached, "metered")


def prepare(path: str, body: Any) -> Any:
    """Ask a streamed Chat Completions request for its usage (see the module's docstring)."""
    if (
        path.rstrip("/").endswith("/chat/completions")
        and isinstance(body, dict)
        and body.get("stream") is True
    ):
        options = body.get("stream_options")
        options = dict(options) if isinstance(options, dict) else {}
        if options.get("include_usage") is not True:
            return {**body, "stream_options": {**options, "include_usage": True}}
    return body
