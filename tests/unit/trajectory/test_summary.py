"""The ATIF document of metered steps, valid against the vendored schema (and Harbor's own
models where SPECSNAP_HARBOR_PYTHON names a Python with the harbor package), and its summary."""

from __future__ import annotations

from specsnap.scorecard.model import Tokens
from specsnap.trajectory.atif import atif_document
from specsnap.trajectory.calls import ToolCall
from specsnap.trajectory.steps import MeteredStep
from specsnap.trajectory.summary import rediscovered, session_work
from tests.support.atif import validate_atif

FAIL = "F.\n1 failed, 1 passed in 0.1s"


def step(seq: int, calls: list[ToolCall], results: dict[str, str], out: int) -> MeteredStep:
    return MeteredStep(seq, "anthropic", tuple(calls), results, Tokens(100, out, 0, 10), False)


STEPS = [
    step(1, [ToolCall("a", "Read", {"file_path": "pkg/mod.py"})], {}, 5),
    step(2, [ToolCall("b", "Bash", {"command": "pytest -q"})], {"a": "text"}, 6),
    step(3, [ToolCall("c", "Bash", {"command": "pytest -q"})], {"b": FAIL}, 7),
    step(4, [ToolCall("d", "Edit", {"file_path": "pkg/mod.py"})], {"c": FAIL}, 8),
    step(5, [ToolCall("e", "mystery", {})], {"d": "ok"}, 9),
    MeteredStep(6, "anthropic", (), {"e": "x"}, None, True),
]


def test_the_document_is_valid_atif_with_results_and_tokens() -> None:
    document = atif_document("session-1", "claude-code", STEPS)
    validate_atif(document)
    steps = document["steps"]
    assert steps[1]["observation"]["results"] == [{"source_call_id": "b", "content": FAIL}]
    assert steps[0]["metrics"]["prompt_tokens"] == 110 and "metrics" not in steps[5]
    assert document["final_metrics"]["total_completion_tokens"] == 35
    assert steps[5]["extra"]["torn"] is True


def test_the_summary_counts_kinds_failing_streaks_and_tokens_before_the_first_edit() -> None:
    work = session_work(atif_document("session-1", "claude-code", STEPS))
    assert work.turns == 6
    assert dict(work.actions) == {"read": 1, "edit": 1, "shell": 2, "search": 0, "other": 1}
    assert (work.test_runs, work.longest_failing_streak) == (2, 2)
    assert work.repeated_failing_command == "pytest -q"
    assert work.tokens_before_first_edit == 4 * 110 + 5 + 6 + 7 + 8


def test_a_passing_run_breaks_the_streak_and_nothing_is_rediscovered_without_a_read() -> None:
    passing = [
        *STEPS[:3],
        step(4, [ToolCall("d", "Bash", {"command": "ls"})], {"c": "2 passed"}, 1),
    ]
    work = session_work(atif_document("s", "a", passing))
    assert (work.longest_failing_streak, work.repeated_failing_command) == (1, None)
    assert work.tokens_before_first_edit is None
    later = session_work(atif_document("s", "a", STEPS))
    assert rediscovered([work], later) == {"pkg/mod.py"}
    assert rediscovered([], later) == frozenset()
