"""The token meter: counts from the model API's own answers, passing them through unchanged."""

from __future__ import annotations

import json
import urllib.request

from specsnap.sessions.metering import TokenMeter, anthropic_usage, sse_data
from specsnap.tokens import TokenUsage
from tests.support.fake_anthropic import FakeAnthropic, Turn, Usage, text


def test_stream_usage_merges_message_start_and_the_final_delta() -> None:
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
    assert anthropic_usage(events) == TokenUsage(120, 42, 0, 900, "metered")
    assert anthropic_usage([{"type": "ping"}]) is None


def test_sse_data_skips_torn_and_foreign_lines() -> None:
    stream = [b'event: x\ndata: {"type": "a"}\n\ndata: {tor', b"n\ndata: [DONE]\n"]
    assert sse_data(stream) == [{"type": "a"}]


def _post(url: str, stream: bool) -> bytes:
    body = {
        "model": "m",
        "max_tokens": 10,
        "stream": stream,
        "tools": [{"name": "t"}],
        "messages": [{"role": "user", "content": "hi"}],
    }
    request = urllib.request.Request(
        url + "/v1/messages",
        data=json.dumps(body).encode(),
        headers={"content-type": "application/json", "x-api-key": "k"},
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        data: bytes = answer.read()
        return data


def test_meter_counts_streamed_and_plain_answers_and_passes_them_through() -> None:
    script = [
        Turn((text("one"),), Usage(100, 10, 20, 300)),
        Turn((text("two"),), Usage(50, 5, 0, 400)),
    ]
    with FakeAnthropic(script) as server:
        meter = TokenMeter(server.base_url)
        url = meter.start()
        try:
            streamed = _post(url, stream=True)
            plain = json.loads(_post(url, stream=False))
        finally:
            meter.stop()
    assert b"message_stop" in streamed and b"one" in streamed
    assert plain["content"][0]["text"] == "two"
    assert meter.answers == 2
    assert meter.usage == TokenUsage(150, 15, 20, 700, "metered")
    assert {k.lower(): v for k, v in server.requests[0].headers.items()}["x-api-key"] == "k"
