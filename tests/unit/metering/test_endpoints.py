"""The meter's allowlist: each API forwards the endpoints it can count — those the agent CLIs
call (tests/functional/test_agent_clis.py drives them) — and refuses everything else."""

from __future__ import annotations

import gzip
import json

import pytest

from specsnap.metering.apis import APIS
from specsnap.metering.endpoints import Endpoint, admit

BODY = json.dumps({"model": "m", "messages": []}).encode()
JSON = {"content-type": "application/json"}


def decide(
    api: str,
    method: str,
    target: str,
    body: bytes | None = BODY,
    headers: dict[str, str] | None = None,
) -> Endpoint | str:
    path, _, query = target.partition("?")
    pairs = [tuple(p.split("=", 1)) for p in query.split("&")] if query else []
    return admit(APIS[api].endpoints, method, path, pairs, headers or JSON, body)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("api", "method", "target", "billed"),
    [
        ("anthropic", "POST", "/v1/messages?beta=true", True),  # Claude Code
        ("anthropic", "POST", "/v1/messages", True),  # aider (litellm), the SDKs
        ("anthropic", "POST", "/v1/messages/count_tokens?beta=true", False),
        ("anthropic", "GET", "/v1/models?limit=20", False),
        ("openai", "POST", "/responses", True),  # Codex
        ("openai", "POST", "/chat/completions", True),  # aider
        ("openai", "GET", "/models/gpt-fake-1", False),
        ("gemini", "POST", "/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse", True),
        ("gemini", "POST", "/v1beta/models/gemini-2.5-flash:generateContent", True),
        ("gemini", "POST", "/v1beta/models/gemini-2.5-flash:countTokens", False),
    ],
)
def test_the_endpoints_the_agent_clis_call_are_forwarded(
    api: str, method: str, target: str, billed: bool
) -> None:
    endpoint = decide(api, method, target, BODY if method == "POST" else None)
    assert isinstance(endpoint, Endpoint), endpoint
    assert endpoint.billed is billed


@pytest.mark.parametrize(
    ("api", "method", "target"),
    [
        ("anthropic", "POST", "/v1/messages/batches"),  # Message Batches: answered later
        ("anthropic", "GET", "/v1/messages/batches/msgbatch_1/results"),
        ("anthropic", "POST", "/v1/files"),
        ("anthropic", "POST", "/v1/complete"),  # legacy Text Completions
        ("anthropic", "GET", "/v1/messages"),
        ("anthropic", "POST", "/v1/messages?beta=false"),
        ("anthropic", "POST", "/v1/messages/../messages/batches"),
        ("anthropic", "GET", "/v1/models/.."),
        ("anthropic", "POST", "/v1/messages%2Fbatches"),
        ("openai", "POST", "/completions"),  # legacy Completions
        ("openai", "POST", "/batches"),
        ("openai", "POST", "/files"),
        ("openai", "POST", "/embeddings"),
        ("openai", "GET", "/responses/resp_1"),  # a stored response, counted again
        ("openai", "POST", "/chat/completions?api-version=1"),
        ("gemini", "POST", "/v1beta/models/gemini-2.5-pro:batchGenerateContent"),
        ("gemini", "POST", "/v1beta/models/gemini-2.5-pro:embedContent"),
        ("gemini", "POST", "/v1beta/cachedContents"),
        ("gemini", "POST", "/v1beta/models/g:generateContent?$fields=candidates"),
        ("gemini", "POST", "/v1beta/models/g:generateContent?fields=candidates"),
        ("gemini", "POST", "/v1beta/models/g:streamGenerateContent?alt=proto"),
        ("gemini", "POST", "/upload/v1beta/files"),
    ],
)
def test_everything_else_is_refused_with_the_reason(api: str, method: str, target: str) -> None:
    refused = decide(api, method, target)
    assert isinstance(refused, str) and refused


def test_a_body_the_meter_cannot_read_is_refused() -> None:
    target = "/v1beta/models/g:generateContent"
    gzipped = {**JSON, "Content-Encoding": "gzip"}
    assert "Content-Encoding" in str(decide("gemini", "POST", target, gzip.compress(BODY), gzipped))
    chunked = {**JSON, "Transfer-Encoding": "chunked"}
    assert "Content-Length" in str(decide("gemini", "POST", target, BODY, chunked))
    assert "JSON object" in str(decide("openai", "POST", "/responses", b"[1, 2]"))
    assert "JSON object" in str(decide("anthropic", "POST", "/v1/messages", None))
    identity = {**JSON, "Content-Encoding": "identity"}
    assert isinstance(decide("gemini", "POST", target, BODY, identity), Endpoint)


@pytest.mark.parametrize("header", ["X-Goog-FieldMask", "X-HTTP-Method-Override"])
def test_a_field_mask_or_a_method_override_is_refused(header: str) -> None:
    target = "/v1beta/models/g:generateContent"
    refused = decide("gemini", "POST", target, BODY, {**JSON, header: "candidates"})
    assert isinstance(refused, str) and header.lower() in refused
