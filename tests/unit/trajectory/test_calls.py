"""The tool calls of an answer and the tool results of a request, per API format, whole and
torn: a stream cut off mid-answer yields the calls that began, arguments as far as they came."""

from __future__ import annotations

import json
from typing import Any

from specsnap.metering.streams import answer_objects
from specsnap.trajectory.calls import ToolCall, answer_calls, request_results


def sse(*events: dict[str, Any]) -> bytes:
    return b"".join(b"event: x\ndata: " + json.dumps(e).encode() + b"\n\n" for e in events)


def calls(body: bytes, content_type: str = "text/event-stream") -> list[ToolCall]:
    return answer_calls(answer_objects(body, content_type))


ANTHROPIC = [
    {"type": "message_start", "message": {"usage": {"input_tokens": 5, "output_tokens": 1}}},
    {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}},
    {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "Hi"}},
    {"type": "content_block_start", "index": 1,
     "content_block": {"type": "tool_use", "id": "toolu_1", "name": "Read", "input": {}}},
    {"type": "content_block_delta", "index": 1,
     "delta": {"type": "input_json_delta", "partial_json": '{"file_path": "/s/a'}},
    {"type": "content_block_delta", "index": 1,
     "delta": {"type": "input_json_delta", "partial_json": '.py"}'}},
    {"type": "content_block_start", "index": 2,
     "content_block": {"type": "tool_use", "id": "toolu_2", "name": "Bash", "input": {}}},
    {"type": "content_block_delta", "index": 2,
     "delta": {"type": "input_json_delta", "partial_json": '{"command": "pytest -q'}},
    {"type": "content_block_delta", "index": 2,
     "delta": {"type": "input_json_delta", "partial_json": '"}'}},
]  # fmt: skip


def test_anthropic_stream_calls_in_order_with_their_assembled_input() -> None:
    assert calls(sse(*ANTHROPIC)) == [
        ToolCall("toolu_1", "Read", {"file_path": "/s/a.py"}),
        ToolCall("toolu_2", "Bash", {"command": "pytest -q"}),
    ]


def test_a_torn_anthropic_stream_keeps_the_call_that_began_with_its_partial_input() -> None:
    body = sse(*ANTHROPIC[:-1])
    torn = body + b'event: x\ndata: {"type": "content_block_de'
    assert calls(torn) == [
        ToolCall("toolu_1", "Read", {"file_path": "/s/a.py"}),
        ToolCall("toolu_2", "Bash", {"partial": '{"command": "pytest -q'}),
    ]


def test_anthropic_whole_message() -> None:
    message = {
        "type": "message",
        "content": [
            {"type": "text", "text": "ok"},
            {"type": "tool_use", "id": "t", "name": "Edit", "input": {"file_path": "x.py"}},
        ],
    }
    assert calls(json.dumps(message).encode(), "application/json") == [
        ToolCall("t", "Edit", {"file_path": "x.py"})
    ]


def chat_chunk(index: int, **call: Any) -> dict[str, Any]:
    return {"choices": [{"index": 0, "delta": {"tool_calls": [{"index": index, **call}]}}]}


def test_openai_chat_stream_assembles_each_call_by_its_index() -> None:
    body = (
        sse(
            chat_chunk(0, id="c1", function={"name": "shell", "arguments": '{"command": ["ls"'}),
            chat_chunk(1, id="c2", function={"name": "read_file", "arguments": ""}),
            chat_chunk(0, function={"arguments": "]}"}),
            chat_chunk(1, function={"arguments": '{"path": "b.py"}'}),
            {"choices": [], "usage": {"prompt_tokens": 3, "completion_tokens": 2}},
        )
        + b"data: [DONE]\n\n"
    )
    assert calls(body) == [
        ToolCall("c1", "shell", {"command": ["ls"]}),
        ToolCall("c2", "read_file", {"path": "b.py"}),
    ]


def test_openai_chat_whole_answer() -> None:
    answer = {
        "choices": [
            {"message": {"tool_calls": [
                {"id": "c", "type": "function",
                 "function": {"name": "exec_command", "arguments": '{"cmd": "pytest"}'}},
            ]}}
        ]
    }  # fmt: skip
    assert calls(json.dumps(answer).encode(), "application/json") == [
        ToolCall("c", "exec_command", {"cmd": "pytest"})
    ]


RESPONSES = [
    {"type": "response.created", "response": {"output": []}},
    {"type": "response.output_item.added", "output_index": 0,
     "item": {"type": "function_call", "call_id": "f1", "name": "exec_command", "arguments": ""}},
    {"type": "response.function_call_arguments.delta", "output_index": 0, "delta": '{"cmd": "git'},
    {"type": "response.function_call_arguments.delta", "output_index": 0, "delta": ' status"}'},
    {"type": "response.output_item.done", "output_index": 0,
     "item": {"type": "function_call", "call_id": "f1", "name": "exec_command",
              "arguments": '{"cmd": "git status"}'}},
    {"type": "response.output_item.added", "output_index": 1,
     "item": {"type": "custom_tool_call", "call_id": "p1", "name": "apply_patch", "input": ""}},
    {"type": "response.custom_tool_call_input.delta", "output_index": 1, "delta": "*** Begin"},
]  # fmt: skip


def test_responses_stream_function_and_custom_tool_calls_even_when_torn() -> None:
    assert calls(sse(*RESPONSES)) == [
        ToolCall("f1", "exec_command", {"cmd": "git status"}),
        ToolCall("p1", "apply_patch", {"partial": "*** Begin"}),
    ]
    done = {
        "type": "response.output_item.done",
        "output_index": 1,
        "item": {"type": "custom_tool_call", "call_id": "p1", "name": "apply_patch",
                 "input": "*** Begin Patch"},
    }  # fmt: skip
    assert calls(sse(*RESPONSES, done))[1] == ToolCall(
        "p1", "apply_patch", {"input": "*** Begin Patch"}
    )


def test_responses_completed_output_is_not_counted_twice() -> None:
    item = {"type": "function_call", "call_id": "f1", "name": "shell", "arguments": "{}"}
    completed = {"type": "response.completed", "response": {"output": [item]}}
    added = {"type": "response.output_item.added", "output_index": 0, "item": item}
    assert calls(sse(added, completed)) == [ToolCall("f1", "shell", {})]


def gemini_chunk(*parts: dict[str, Any]) -> dict[str, Any]:
    return {"candidates": [{"content": {"role": "model", "parts": list(parts)}}]}


def test_gemini_stream_array_torn_after_its_first_call() -> None:
    one = gemini_chunk({"functionCall": {"name": "read_file", "args": {"absolute_path": "/a"}}})
    two = gemini_chunk({"functionCall": {"name": "run_shell_command", "args": {"command": "ls"}}})
    body = ("[" + json.dumps(one) + ",\r\n" + json.dumps(two) + "]").encode()
    assert [c.name for c in calls(body, "application/json")] == ["read_file", "run_shell_command"]
    torn = body[: len(body) - 20]
    assert calls(torn, "application/json") == [
        ToolCall("call-1", "read_file", {"absolute_path": "/a"})
    ]


def test_request_results_per_format() -> None:
    anthropic = {"messages": [{"role": "user", "content": [
        {"type": "tool_result", "tool_use_id": "toolu_1",
         "content": [{"type": "text", "text": "1 failed"}]},
    ]}]}  # fmt: skip
    chat = {"messages": [{"role": "tool", "tool_call_id": "c1", "content": "ok"}]}
    responses = {"input": [{"type": "function_call_output", "call_id": "f1", "output": "done"}]}
    gemini = {"contents": [{"role": "user", "parts": [
        {"functionResponse": {"name": "run_shell_command", "response": {"output": "x"}}}
    ]}]}  # fmt: skip
    assert request_results(anthropic) == {"toolu_1": "1 failed"}
    assert request_results(chat) == {"c1": "ok"}
    assert request_results(responses) == {"f1": "done"}
    assert request_results(gemini) == {"run_shell_command": '{"output": "x"}'}
    assert request_results({"messages": [{"role": "user", "content": "hi"}]}) == {}


def test_an_argument_value_is_bounded() -> None:
    chunk = chat_chunk(0, id="c", function={"name": "Write", "arguments": json.dumps(
        {"file_path": "a.py", "content": "x" * 10_000})})  # fmt: skip
    (call,) = calls(sse(chunk))
    assert len(call.arguments["content"]) == 2000 and call.arguments["file_path"] == "a.py"
