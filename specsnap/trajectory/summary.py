"""What a run's trajectories say about how the work went: turns, actions by kind, rediscovery,
test runs and failing streaks, a failing command repeated, tokens before the first edit. Read
from the ATIF documents (sessions/N/trajectory.json), so a rebuilt scorecard reads the same."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from specsnap.trajectory.kinds import KINDS

#: A shell command that runs the test suite.
TEST_COMMAND = re.compile(r"(^|[\s;&|(])(python3? -m )?pytest\b")
#: A test run's result that says tests failed (pytest's summary line or its exit).
FAILED = re.compile(r"\b\d+ failed\b|\bFAILED\b|\berrors? during collection\b")


@dataclass(frozen=True)
class Action:
    step: int
    kind: str
    target: str
    result: str | None  # the tool result the next request handed back, when one did


@dataclass(frozen=True)
class SessionWork:
    """One session's trajectory, summarized."""

    turns: int
    actions: Mapping[str, int]
    test_runs: int
    longest_failing_streak: int
    repeated_failing_command: str | None
    tokens_before_first_edit: int | None  # None when the session made no edit
    files_read: frozenset[str]


def actions_of(document: Mapping[str, Any]) -> list[Action]:
    """Every action of a trajectory, in order, with its result."""
    found = []
    for step in document.get("steps", []):
        results = {
            r.get("source_call_id"): r.get("content")
            for r in (step.get("observation") or {}).get("results", [])
        }
        calls = step.get("tool_calls") or []
        readings = (step.get("extra") or {}).get("actions") or []
        for call, reading in zip(calls, readings, strict=False):
            result = results.get(call["tool_call_id"], results.get(call["function_name"]))
            found.append(Action(step["step_id"], reading["kind"], reading["target"], result))
    return found


def session_work(document: Mapping[str, Any]) -> SessionWork:
    """The summary of one session's trajectory."""
    actions = actions_of(document)
    tests = [a for a in actions if a.kind == "shell" and TEST_COMMAND.search(a.target)]
    streak = longest = 0
    for run in tests:
        streak = streak + 1 if _failed(run) else 0
        longest = max(longest, streak)
    failing = Counter(a.target for a in actions if a.kind == "shell" and _failed(a))
    repeated = next((cmd for cmd, n in failing.most_common(1) if n > 1), None)
    return SessionWork(
        turns=len(document.get("steps", [])),
        actions={kind: sum(1 for a in actions if a.kind == kind) for kind in KINDS},
        test_runs=len(tests),
        longest_failing_streak=longest,
        repeated_failing_command=repeated,
        tokens_before_first_edit=_tokens_before_edit(document, actions),
        files_read=frozenset(a.target for a in actions if a.kind == "read" and a.target),
    )


def rediscovered(earlier: Sequence[SessionWork], later: SessionWork) -> frozenset[str]:
    """Files a later session read again that an earlier session had already read."""
    known = frozenset().union(*(s.files_read for s in earlier)) if earlier else frozenset()
    return later.files_read & known


def _failed(action: Action) -> bool:
    return action.result is not None and FAILED.search(action.result) is not None


def _tokens_before_edit(document: Mapping[str, Any], actions: Sequence[Action]) -> int | None:
    """Tokens of every answer up to and including the one that asked for the first edit."""
    first = next((a.step for a in actions if a.kind == "edit"), None)
    if first is None:
        return None
    return sum(_tokens(step) for step in document.get("steps", []) if step["step_id"] <= first)


def _tokens(step: Mapping[str, Any]) -> int:
    metrics = step.get("metrics") or {}
    return int(metrics.get("prompt_tokens", 0)) + int(metrics.get("completion_tokens", 0))
