"""How each API's answers are read: usage in SpecSnap's terms, from JSON bodies and streams,
complete or cut off."""

from __future__ import annotations

import json

from specsnap.metering import anthropic, gemini, openai
from specsnap.metering.streams import answer_objects, json_objects, sse_events
from specsnap.scorecard.model import Tokens


def sse(*events: dict[str, object], done: bool = False) -> bytes:
    body = b"".join(b"data: " + json.dumps(e).encode() + b"\n\n" for e in events)
    return body + (b"data: [DONE]\n\n" if done else b"")


def test_anthropic_stream_merges_message_start_and_the_final_delta() -> None:
    events = [
        {
            "type": "message_start",
            "message": {
                "usage": {"input_tokens": 120, "cache_read_input_tokens": 900, "output_tokens": 1}
            },
        },
        {"type": "content_block_delta", "delta": {"text": "hi"}},
        {"type": "message_delta", "usage": {"output_tokens": 42}},
    ]
    assert anthropic.usage(events) == Tokens(120, 42, 0, 900, "metered")
    assert anthropic.usage([{"type": "ping"}]) is None


def test_a_cut_off_anthropic_stream_counts_what_arrived() -> None:
    body = sse(
        {"type": "message_start", "message": {"usage": {"input_tokens": 70, "output_tokens": 1}}}
    )
    torn = body + b'data: {"type": "message_delta", "usage": {"output_tok'
    assert anthropic.usage(answer_objects(torn, "text/event-stream")) == Tokens(
        70, 1, 0, 0, "metered"
    )


def test_openai_chat_completions_json_and_stream() -> None:
    usage = {
        "prompt_tokens": 1000,
        "completion_tokens": 50,
        "prompt_tokens_details": {"cached_tokens": 800},
    }
    answer = {"object": "chat.completion", "choices": [], "usage": usage}
    assert openai.usage([answer]) == Tokens(200, 50, 0, 800, "metered")
    stream = sse(
        {"object": "chat.completion.chunk", "choices": [{"delta": {"content": "a"}}]},
        {"object": "chat.completion.chunk", "choices": [], "usage": usage},
        done=True,
    )
    assert openai.usage(answer_objects(stream, "text/event-stream")) == Tokens(
        200, 50, 0, 800, "metered"
    )


def test_openai_responses_json_and_stream() -> None:
    usage = {
        "input_tokens": 500,
        "input_tokens_details": {"cached_tokens": 100},
        "output_tokens": 30,
        "output_tokens_details": {"reasoning_tokens": 10},
    }
    assert openai.usage([{"object": "response", "usage": usage}]) == Tokens(
        400, 30, 0, 100, "metered"
    )
    stream = sse(
        {"type": "response.created", "response": {"usage": None}},
        {"type": "response.output_text.delta", "delta": "x"},
        {"type": "response.completed", "response": {"usage": usage}},
    )
    assert openai.usage(sse_events(stream)) == Tokens(400, 30, 0, 100, "metered")


def test_the_meter_asks_a_streamed_chat_completion_for_its_usage() -> None:
    body = {"model": "m", "stream": True, "stream_options": {"x": 1}}
    assert openai.prepare("/v1/chat/completions", body) == {
        **body,
        "stream_options": {"x": 1, "include_usage": True},
    }
    plain = {"model": "m"}
    assert openai.prepare("/v1/chat/completions", plain) is plain
    responses = {"model": "m", "stream": True}
    assert openai.prepare("/v1/responses", responses) is responses


def test_gemini_json_sse_and_json_array_streams() -> None:
    final = {
        "promptTokenCount": 900,
        "cachedContentTokenCount": 600,
        "candidatesTokenCount": 40,
        "thoughtsTokenCount": 25,
        "toolUsePromptTokenCount": 5,
    }
    expected = Tokens(305, 65, 0, 600, "metered")
    assert gemini.usage([{"candidates": [], "usageMetadata": final}]) == expected
    chunks = [
        {"candidates": [{"content": {}}], "usageMetadata": {"promptTokenCount": 900}},
        {"candidates": [{"content": {}}], "usageMetadata": final},
    ]
    assert gemini.usage(answer_objects(sse(*chunks), "text/event-stream")) == expected
    array = ("[" + ",\r\n".join(json.dumps(c) for c in chunks) + "]").encode()
    assert gemini.usage(answer_objects(array, "application/json")) == expected
    cut = array[: array.index(b"thoughts")]  # the second chunk never arrived whole
    assert gemini.usage(answer_objects(cut, "application/json")) == Tokens(900, 0, 0, 0, "metered")


def test_streams_skip_torn_and_foreign_lines() -> None:
    stream = b'event: x\ndata: {"type": "a"}\n\ndata: {tor\n\ndata: [DONE]\n\n: comment\n'
    assert sse_events(stream) == [{"type": "a"}]
    assert sse_events(b'data: {"a":\ndata: 1}\n\n') == [{"a": 1}]  # one event, two lines
    assert json_objects(b"not json") == []
    assert json_objects(b'{"a": 1}') == [{"a": 1}]
