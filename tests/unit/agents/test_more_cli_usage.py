"""Usage reports of the CLIs added after the first four: opencode, Qwen Code, mini-swe-agent."""

from __future__ import annotations

import json

from specsnap.agents.cli_usage import (
    parse_mini_trajectory,
    parse_opencode_events,
    parse_qwen_stream,
)
from specsnap.scorecard.model import Tokens


def step_finish(inp: int, out: int, reasoning: int, write: int, read: int) -> str:
    tokens = {"input": inp, "output": out, "reasoning": reasoning,
              "cache": {"write": write, "read": read}}  # fmt: skip
    return json.dumps({"type": "step_finish", "part": {"type": "step-finish", "tokens": tokens}})


def test_every_finished_step_is_summed_and_reasoning_counts_as_output() -> None:
    text = "\n".join(
        [
            json.dumps({"type": "step_start", "part": {"type": "step-start"}}),
            step_finish(900, 120, 5, 0, 2500),
            json.dumps({"type": "text", "part": {"text": "done"}}),
            step_finish(300, 30, 0, 7, 100),
        ]
    )
    assert parse_opencode_events(text) == Tokens(1200, 155, 7, 2600, "reported")


def test_a_torn_last_line_is_skipped_and_what_came_before_counts() -> None:
    text = step_finish(900, 120, 0, 0, 2500) + "\n" + step_finish(300, 30, 0, 0, 100)[:40]
    assert parse_opencode_events(text) == Tokens(900, 120, 0, 2500, "reported")


def test_no_finished_step_is_unknown_and_bad_counts_are_zero() -> None:
    assert parse_opencode_events('{"type":"step_start"}\nnot json\n').source == "unknown"
    bad = json.dumps({"type": "step_finish", "part": {"tokens": {"input": -3, "output": "x"}}})
    assert parse_opencode_events(bad) == Tokens(0, 0, 0, 0, "reported")


def qwen_assistant(ident: str, inp: int, out: int, read: int) -> str:
    usage = {"input_tokens": inp, "output_tokens": out, "cache_read_input_tokens": read}
    return json.dumps({"type": "assistant", "message": {"id": ident, "usage": usage}})


def test_qwen_result_line_wins_and_input_excludes_cache_reads() -> None:
    result = {"type": "result", "usage": {"input_tokens": 3800, "output_tokens": 150,
                                          "cache_read_input_tokens": 2600}}  # fmt: skip
    text = qwen_assistant("a", 3400, 120, 2500) + "\n" + json.dumps(result)
    assert parse_qwen_stream(text) == Tokens(1200, 150, 0, 2600, "reported")


def test_qwen_cut_off_sums_its_messages_and_skips_a_torn_last_line() -> None:
    text = "\n".join(
        [qwen_assistant("a", 3400, 120, 2500), qwen_assistant("b", 400, 30, 100), '{"type":"res']
    )
    assert parse_qwen_stream(text) == Tokens(1200, 150, 0, 2600, "reported")
    assert parse_qwen_stream("torn {").source == "unknown"


def mini_response(prompt: int, completion: int, cached: int) -> dict[str, object]:
    usage = {"prompt_tokens": prompt, "completion_tokens": completion,
             "prompt_tokens_details": {"cached_tokens": cached}}  # fmt: skip
    message = {"role": "assistant", "content": "ok"}
    return {**message, "extra": {"response": {"choices": [{"message": message}], "usage": usage}}}


def mini_trajectory(*responses: dict[str, object]) -> str:
    command = {"role": "tool", "content": 'echo \'"usage": {"prompt_tokens": 99}\''}
    messages = [{"role": "system", "content": "s"}, command, *responses]
    return json.dumps({"info": {"model_stats": {}}, "messages": messages}, indent=2)


def test_mini_sums_every_response_of_its_trajectory_and_input_excludes_cache_reads() -> None:
    text = mini_trajectory(mini_response(3400, 120, 2500), mini_response(400, 30, 100))
    assert parse_mini_trajectory(text) == Tokens(1200, 150, 0, 2600, "reported")


def test_mini_torn_trajectory_counts_the_responses_written_before_the_tear() -> None:
    text = mini_trajectory(mini_response(3400, 120, 2500), mini_response(400, 30, 100))
    torn = text[: text.rindex('"completion_tokens"')]
    assert parse_mini_trajectory(torn) == Tokens(900, 120, 0, 2500, "reported")
    assert parse_mini_trajectory(text[:20]).source == "unknown"
    assert parse_mini_trajectory("").source == "unknown"
