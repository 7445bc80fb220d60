"""Token parsers of the CLI adapters over realistic output: whole sessions, sessions cut off
mid-stream, and garbage."""

from __future__ import annotations

import json

from specsnap.agents.cli_usage import (
    parse_aider_output,
    parse_claude_stream,
    parse_codex_events,
    parse_codex_rollout,
    parse_gemini_chat,
    parse_gemini_stream,
)
from specsnap.scorecard.model import Tokens

UNKNOWN = Tokens.unknown()
GARBAGE = "\n".join(
    [
        "",
        "Error: something went wrong",
        "{not json",
        "[1, 2, 3]",
        '"a string"',
        '{"type": "result", "usage": "many"}',
        '{"type": "assistant", "message": {"id": "m", "usage": {"input_tokens": "12"}}}',
        "\x00\x01binary",
    ]
)

# --- Claude Code: `claude -p --output-format stream-json --verbose --include-partial-messages`
# Lines as Claude Code 2.1.332 printed them (ids, uuids and long fields trimmed).


def _start(msg: str, inp: int, write: int, read: int) -> str:
    usage = {
        "input_tokens": inp,
        "output_tokens": 1,
        "cache_creation_input_tokens": write,
        "cache_read_input_tokens": read,
    }
    event = {"type": "message_start", "message": {"id": msg, "role": "assistant", "usage": usage}}
    return json.dumps({"type": "stream_event", "event": event, "api_message_id": msg})


def _assistant(msg: str, block: dict[str, object], inp: int, write: int, read: int) -> str:
    usage = {
        "input_tokens": inp,
        "output_tokens": 1,
        "cache_creation_input_tokens": write,
        "cache_read_input_tokens": read,
    }
    message = {"id": msg, "role": "assistant", "content": [block], "usage": usage}
    return json.dumps({"type": "assistant", "message": message, "parent_tool_use_id": None})


def _delta(msg: str, inp: int, out: int, write: int, read: int) -> str:
    usage = {
        "input_tokens": inp,
        "output_tokens": out,
        "cache_creation_input_tokens": write,
        "cache_read_input_tokens": read,
    }
    event = {"type": "message_delta", "delta": {"stop_reason": "tool_use"}, "usage": usage}
    return json.dumps({"type": "stream_event", "event": event, "api_message_id": msg})


CLAUDE_INIT = '{"type":"system","subtype":"init","cwd":"/sandbox","model":"claude-opus-5-5","claude_code_version":"2.1.332"}'  # noqa: E501
CLAUDE_TURN_1 = [
    _start("msg_1", 100, 30, 40),
    '{"type":"stream_event","event":{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}},"api_message_id":"msg_1"}',
    '{"type":"stream_event","event":{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"I\'ll write it."}},"api_message_id":"msg_1"}',  # noqa: E501
    _assistant("msg_1", {"type": "text", "text": "I'll write it."}, 100, 30, 40),
    _assistant(
        "msg_1",
        {"type": "tool_use", "name": "Write", "input": {"file_path": "/s/a.py", "content": "x"}},
        100,
        30,
        40,
    ),
    _delta("msg_1", 100, 20, 30, 40),
    '{"type":"stream_event","event":{"type":"message_stop"},"api_message_id":"msg_1"}',
    '{"type":"user","message":{"role":"user","content":[{"type":"tool_result","content":"File created successfully at: /s/a.py"}]}}',  # noqa: E501
]
CLAUDE_TURN_2 = [
    _start("msg_2", 200, 31, 41),
    _assistant(
        "msg_2", {"type": "tool_use", "name": "Bash", "input": {"command": "git"}}, 200, 31, 41
    ),
    _delta("msg_2", 200, 21, 31, 41),
]
CLAUDE_RESULT = (
    '{"type":"result","subtype":"success","is_error":false,"num_turns":2,"result":"Done.",'
    '"total_cost_usd":0.0041,"usage":{"input_tokens":300,"cache_creation_input_tokens":61,'
    '"cache_read_input_tokens":81,"output_tokens":41},"modelUsage":{"claude-opus-5-5":'
    '{"inputTokens":300,"outputTokens":41,"cacheReadInputTokens":81,"cacheCreationInputTokens":61,'
    '"costUSD":0.004}}}'
)
CLAUDE_COMPLETE = "\n".join([CLAUDE_INIT, *CLAUDE_TURN_1, *CLAUDE_TURN_2, CLAUDE_RESULT]) + "\n"


def test_claude_complete_session_reads_the_result_line() -> None:
    assert parse_claude_stream(CLAUDE_COMPLETE) == Tokens(300, 41, 61, 81, "reported")


def test_claude_result_sums_every_model_of_model_usage() -> None:
    result = json.loads(CLAUDE_RESULT)
    result["modelUsage"]["claude-haiku-4-5"] = {
        "inputTokens": 7,
        "outputTokens": 3,
        "cacheReadInputTokens": 0,
        "cacheCreationInputTokens": 0,
    }
    assert parse_claude_stream(json.dumps(result)) == Tokens(307, 44, 61, 81, "reported")


def test_claude_result_without_model_usage_falls_back_to_usage() -> None:
    result = json.loads(CLAUDE_RESULT)
    del result["modelUsage"]
    assert parse_claude_stream(json.dumps(result)) == Tokens(300, 41, 61, 81, "reported")


def test_claude_cut_off_session_sums_each_message_once_with_its_final_counts() -> None:
    cut = "\n".join([CLAUDE_INIT, *CLAUDE_TURN_1, *CLAUDE_TURN_2])
    assert parse_claude_stream(cut) == Tokens(300, 41, 61, 81, "reported")


def test_claude_session_cut_mid_line_and_mid_message_counts_what_was_reported() -> None:
    torn_delta = _delta("msg_2", 200, 21, 31, 41)[:50]
    cut = "\n".join([*CLAUDE_TURN_1, _start("msg_2", 200, 31, 41), torn_delta])
    # msg_2's output is known only as message_start's 1 token.
    assert parse_claude_stream(cut) == Tokens(300, 21, 61, 81, "reported")


def test_claude_without_partial_messages_still_counts_each_message_once() -> None:
    lines = [line for line in CLAUDE_TURN_1 + CLAUDE_TURN_2 if '"stream_event"' not in line]
    assert parse_claude_stream("\n".join(lines)) == Tokens(300, 2, 61, 81, "reported")


def test_claude_delta_without_message_id_belongs_to_the_last_started_message() -> None:
    delta = json.loads(_delta("msg_1", 100, 20, 30, 40))
    del delta["api_message_id"]
    text = "\n".join([_start("msg_1", 100, 30, 40), json.dumps(delta)])
    assert parse_claude_stream(text) == Tokens(100, 20, 30, 40, "reported")


def test_claude_garbage_is_unknown_and_garbage_between_lines_is_skipped() -> None:
    assert parse_claude_stream(GARBAGE) == UNKNOWN
    assert parse_claude_stream("") == UNKNOWN
    assert parse_claude_stream(CLAUDE_INIT) == UNKNOWN
    noisy = GARBAGE + "\n" + CLAUDE_COMPLETE + "\n" + GARBAGE
    assert parse_claude_stream(noisy) == Tokens(300, 41, 61, 81, "reported")


# --- Codex: `codex exec --json`, and its rollout file


CODEX_EVENTS = [
    '{"type":"thread.started","thread_id":"0199a213-81c0-7800-8aa1-bbab2a035a53"}',
    '{"type":"turn.started"}',
    '{"type":"item.completed","item":{"id":"item_0","type":"reasoning","text":"**Scanning**"}}',
    '{"type":"item.started","item":{"id":"item_1","type":"command_execution","command":"bash -lc ls","aggregated_output":"","exit_code":null,"status":"in_progress"}}',  # noqa: E501
    '{"type":"item.completed","item":{"id":"item_2","type":"file_change","changes":[{"path":"greet.py","kind":"add"}],"status":"completed"}}',
    '{"type":"item.completed","item":{"id":"item_3","type":"agent_message","text":"Done."}}',
]
CODEX_TURN_COMPLETED = (
    '{"type":"turn.completed","usage":{"input_tokens":24763,"cached_input_tokens":24448,'
    '"output_tokens":122}}'
)


def test_codex_completed_turn_splits_cached_tokens_out_of_input() -> None:
    text = "\n".join([*CODEX_EVENTS, CODEX_TURN_COMPLETED])
    assert parse_codex_events(text) == Tokens(315, 122, 0, 24448, "reported")


def test_codex_turns_add_up_and_cache_writes_count_apart() -> None:
    second = (
        '{"type":"turn.completed","usage":{"input_tokens":1000,"cached_input_tokens":600,'
        '"cache_write_input_tokens":300,"output_tokens":50,"reasoning_output_tokens":20}}'
    )
    text = "\n".join([CODEX_TURN_COMPLETED, second])
    assert parse_codex_events(text) == Tokens(415, 172, 300, 25048, "reported")


def test_codex_cut_off_or_garbage_output_is_unknown() -> None:
    assert parse_codex_events("\n".join(CODEX_EVENTS)) == UNKNOWN
    assert parse_codex_events(GARBAGE) == UNKNOWN


CODEX_ROLLOUT = "\n".join(
    [
        '{"timestamp":"2026-11-29T12:00:00.000Z","type":"session_meta","payload":{"id":"0199a213","cwd":"/sandbox","cli_version":"0.171.0"}}',
        '{"timestamp":"2026-11-29T12:00:01.000Z","type":"event_msg","payload":{"type":"token_count","info":null,"rate_limits":null}}',
        '{"timestamp":"2026-11-29T12:00:05.000Z","type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":{"input_tokens":6245,"cached_input_tokens":5376,"output_tokens":407,"reasoning_output_tokens":320,"total_tokens":6652},"last_token_usage":{"input_tokens":6245,"cached_input_tokens":5376,"output_tokens":407,"reasoning_output_tokens":320,"total_tokens":6652},"model_context_window":272000}}}',
        '{"timestamp":"2026-11-29T12:00:06.000Z","type":"response_item","payload":{"type":"function_call","name":"shell","arguments":"{\\"command\\":[\\"ls\\"]}"}}',
        # the same record again (a rate-limit update): not another response
        '{"timestamp":"2026-11-29T12:00:06.500Z","type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":{"input_tokens":6245,"cached_input_tokens":5376,"output_tokens":407,"reasoning_output_tokens":320,"total_tokens":6652},"last_token_usage":{"input_tokens":6245,"cached_input_tokens":5376,"output_tokens":407,"reasoning_output_tokens":320,"total_tokens":6652},"model_context_window":272000}}}',
        '{"timestamp":"2026-11-29T12:00:09.000Z","type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":{"input_tokens":26549,"cached_input_tokens":22272,"output_tokens":1590,"reasoning_output_tokens":1152,"total_tokens":28139},"last_token_usage":{"input_tokens":20304,"cached_input_tokens":16896,"output_tokens":1183,"reasoning_output_tokens":832,"total_tokens":21487},"model_context_window":272000}}}',
        '{"timestamp":"2026-11-29T12:00:10.000Z","type":"event_msg","payload":{"type":"agent_mess',
    ]
)


def test_codex_rollout_sums_its_per_response_records_even_when_torn() -> None:
    assert parse_codex_rollout(CODEX_ROLLOUT) == Tokens(4277, 1590, 0, 22272, "reported")
    assert parse_codex_rollout(GARBAGE) == UNKNOWN


# --- Gemini CLI: `gemini --output-format stream-json`, and its chat recording


GEMINI_STREAM = [
    '{"type":"init","timestamp":"2026-11-29T12:00:00.000Z","session_id":"c1a2","model":"gemini-2.5-pro"}',
    '{"type":"message","timestamp":"2026-11-29T12:00:00.100Z","role":"user","content":"Add greet()"}',  # noqa: E501
    '{"type":"message","timestamp":"2026-11-29T12:00:02.000Z","role":"assistant","content":"I\'ll add it.","delta":true}',  # noqa: E501
    '{"type":"tool_use","timestamp":"2026-11-29T12:00:02.500Z","tool_name":"write_file","tool_id":"write_file-1","parameters":{"file_path":"greet.py","content":"x"}}',
    '{"type":"tool_result","timestamp":"2026-11-29T12:00:02.600Z","tool_id":"write_file-1","status":"success"}',
]
GEMINI_RESULT = (
    '{"type":"result","timestamp":"2026-11-29T12:00:04.000Z","status":"success","stats":'
    '{"total_tokens":25113,"input_tokens":24939,"output_tokens":20,"cached":21263,"input":3676,'
    '"duration_ms":5053,"tool_calls":1,"models":{"gemini-2.5-pro":{"total_tokens":25113,'
    '"input_tokens":24939,"output_tokens":20,"cached":21263,"input":3676}}}}'
)


def test_gemini_result_counts_thinking_tokens_as_output() -> None:
    text = "\n".join([*GEMINI_STREAM, GEMINI_RESULT])
    assert parse_gemini_stream(text) == Tokens(3676, 174, 0, 21263, "reported")


def test_gemini_cut_off_or_garbage_output_is_unknown() -> None:
    assert parse_gemini_stream("\n".join(GEMINI_STREAM)) == UNKNOWN
    assert parse_gemini_stream(GARBAGE) == UNKNOWN


GEMINI_CHAT = "\n".join(
    [
        '{"sessionId":"c1a2","projectHash":"9f8e","startTime":"2026-11-29T12:00:00.000Z","kind":"main"}',
        '{"id":"u1","timestamp":"2026-11-29T12:00:00.100Z","type":"user","content":[{"text":"Add greet()"}]}',  # noqa: E501
        '{"id":"g1","timestamp":"2026-11-29T12:00:02.000Z","type":"gemini","content":"I\'ll add it.","thoughts":[],"tokens":null,"model":"gemini-2.5-pro"}',  # noqa: E501
        '{"$set":{"lastUpdated":"2026-11-29T12:00:02.000Z"}}',
        '{"id":"g1","timestamp":"2026-11-29T12:00:02.000Z","type":"gemini","content":"I\'ll add it.","thoughts":[],"tokens":{"input":8000,"output":50,"cached":6000,"thoughts":30,"tool":0,"total":8080},"model":"gemini-2.5-pro"}',  # noqa: E501
        '{"id":"g2","timestamp":"2026-11-29T12:00:03.000Z","type":"gemini","content":"","thoughts":[],"tokens":{"input":9000,"output":40,"cached":8000,"thoughts":0,"tool":5,"total":9045},"model":"gemini-2.5-pro"}',
        '{"id":"g3","timestamp":"2026-11-29T12:00:04.000Z","type":"gem',
    ]
)


def test_gemini_chat_sums_each_model_message_once() -> None:
    assert parse_gemini_chat(GEMINI_CHAT) == Tokens(3005, 120, 0, 14000, "reported")
    assert parse_gemini_chat(GARBAGE) == UNKNOWN


# --- aider: the `Tokens:` lines it prints after each exchange

AIDER_OUTPUT = """\
Aider v0.86.2
Main model: anthropic/claude-sonnet-4-5 with diff edit format, infinite output
Weak model: anthropic/claude-haiku-4-5
Git repo: .git with 3 files
Repo-map: using 4096 tokens, auto refresh

I'll add greet() to greet.py.

greet.py
<<<<<<< SEARCH
=======
def greet(name):
    return f"Hello, {name}!"
>>>>>>> REPLACE

Tokens: 12k sent, 2.0k cache write, 9.8k cache hit, 345 received.
Cost: $0.02 message, $0.02 session.
Applied edit to greet.py
Commit 1a2b3c4 feat: Add greet function
Tokens: 950 sent, 1.2k received. Cost: $0.01 message, $0.03 session.
"""


def test_aider_sums_its_rounded_token_lines() -> None:
    """`sent` holds the cache hits and writes; `received` runs on over the session (1.2k in the
    second line is 345 from the first exchange plus 855 from the second)."""
    assert parse_aider_output(AIDER_OUTPUT) == Tokens(200 + 950, 345 + 855, 2000, 9800, "reported")


def test_aider_cut_off_before_any_report_or_garbage_is_unknown() -> None:
    assert parse_aider_output(AIDER_OUTPUT.split("Tokens:")[0]) == UNKNOWN
    assert parse_aider_output(GARBAGE) == UNKNOWN
