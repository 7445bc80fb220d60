"""The scripted fake of the Anthropic Messages API that the Claude Code tests drive the real CLI
with: it must stream like the real API, follow its script, and stop by itself."""

from __future__ import annotations

import json
import threading
import time
import urllib.error
import urllib.request
from typing import Any

from tests.support.fake_anthropic import FakeAnthropic, Turn, Usage, bash, text, write_file

SCRIPT = [
    Turn((text("Writing."), write_file("/s/a.py", "x = 1\n" * 30)), Usage(100, 20, 300, 0)),
    Turn((bash("git commit -am wip"),), Usage(110, 10, 0, 300)),
]
TOOLS = [{"name": "Write", "input_schema": {"type": "object"}}]


def post(server: FakeAnthropic, path: str, body: dict[str, Any]) -> tuple[int, bytes]:
    request = urllib.request.Request(
        server.base_url + path,
        data=json.dumps(body).encode(),
        headers={"content-type": "application/json", "x-api-key": "k"},
        method="POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def sse(raw: bytes) -> list[tuple[str, dict[str, Any]]]:
    events = []
    for chunk in raw.decode().strip().split("\n\n"):
        name, data = chunk.split("\n")
        assert name.startswith("event: ") and data.startswith("data: ")
        events.append((name[len("event: ") :], json.loads(data[len("data: ") :])))
    return events


def test_a_streamed_turn_follows_the_real_event_sequence() -> None:
    with FakeAnthropic(SCRIPT) as server:
        status, raw = post(server, "/v1/messages?beta=true", {"stream": True, "tools": TOOLS})
    assert status == 200
    events = sse(raw)
    names = [name for name, _ in events if name != "ping"]
    assert names[0] == "message_start" and names[-2:] == ["message_delta", "message_stop"]
    assert names.count("content_block_start") == names.count("content_block_stop") == 2
    start = events[0][1]["message"]
    assert start["usage"] == {
        "input_tokens": 100,
        "output_tokens": 1,
        "cache_creation_input_tokens": 300,
        "cache_read_input_tokens": 0,
    }
    tool_json = "".join(
        data["delta"]["partial_json"]
        for name, data in events
        if name == "content_block_delta" and data["delta"]["type"] == "input_json_delta"
    )
    assert json.loads(tool_json) == {"file_path": "/s/a.py", "content": "x = 1\n" * 30}
    delta = next(data for name, data in events if name == "message_delta")
    assert delta["delta"]["stop_reason"] == "tool_use"
    assert delta["usage"]["output_tokens"] == 20


def test_turns_follow_the_script_then_the_final_answer_and_side_calls_do_not_advance_it() -> None:
    with FakeAnthropic(SCRIPT, side_usage=Usage(7, 2)) as server:
        side = json.loads(post(server, "/v1/messages", {"messages": []})[1])
        first = json.loads(post(server, "/v1/messages", {"tools": TOOLS})[1])
        second = json.loads(post(server, "/v1/messages", {"tools": TOOLS})[1])
        final = json.loads(post(server, "/v1/messages", {"tools": TOOLS})[1])
        total = server.total_usage()
    assert side["usage"]["input_tokens"] == 7 and side["stop_reason"] == "end_turn"
    assert [block["type"] for block in first["content"]] == ["text", "tool_use"]
    assert first["content"][1]["name"] == "Write" and first["stop_reason"] == "tool_use"
    assert second["content"][0]["input"]["command"] == "git commit -am wip"
    assert final["stop_reason"] == "end_turn"
    assert [r.turn for r in server.requests] == [None, 0, 1, 2]
    assert total == Usage(7, 2) + Usage(100, 20, 300, 0) + Usage(110, 10, 0, 300) + Usage(50, 5)


def test_other_endpoints_count_tokens_or_are_not_found() -> None:
    with FakeAnthropic(SCRIPT) as server:
        status, body = post(server, "/v1/messages/count_tokens", {"messages": []})
        assert status == 200 and "input_tokens" in json.loads(body)
        assert post(server, "/api/unknown", {})[0] == 404
        assert server.total_usage() == Usage()


def test_a_delayed_turn_is_released_when_the_server_stops() -> None:
    server = FakeAnthropic([Turn((text("late"),), Usage(1, 1), delay=60)]).start()
    outcome: list[object] = []

    def call() -> None:
        try:
            outcome.append(post(server, "/v1/messages", {"tools": TOOLS}))
        except OSError as error:
            outcome.append(error)

    caller = threading.Thread(target=call)
    caller.start()
    while server.turns_served < 1:
        time.sleep(0.01)
    started = time.monotonic()
    server.stop()
    caller.join(10)
    assert not caller.is_alive() and time.monotonic() - started < 5
    assert outcome and not isinstance(outcome[0], tuple)  # the connection closed unanswered


def test_the_server_stops_by_itself_when_idle() -> None:
    server = FakeAnthropic(SCRIPT, idle_timeout=0.2).start()
    deadline = time.monotonic() + 10
    while not server.stopped and time.monotonic() < deadline:
        time.sleep(0.05)
    assert server.stopped
