"""The scorecard names every kind of risky move that specsnap.trajectory.risky reports: a kind it
did not know would make work.json an input error, and grading would stop on it. The quality
signals are read from work.json with what the agent named in them bounded."""

from __future__ import annotations

import inspect
import re
from typing import get_args

import pytest

from specsnap.scorecard.codec import DecodeError
from specsnap.scorecard.model import SHELL_RISKS, RiskKind
from specsnap.scorecard.work import LISTED_MAX, TARGET_MAX, work_of
from specsnap.trajectory import risky


def test_the_shell_kinds_are_the_rules_names() -> None:
    assert tuple(kind for kind, _rule in risky.SHELL_RULES) == SHELL_RISKS


def test_every_kind_the_history_reports_is_a_kind_of_the_model() -> None:
    reported = set(re.findall(r'RiskyMove\([^()]*"([a-z-]+)"\)', inspect.getsource(risky)))
    history = set(get_args(RiskKind)) - set(SHELL_RISKS)
    assert reported == history


def test_the_quality_signals_are_read_from_work_json_with_what_the_agent_named_bounded() -> None:
    document = {
        "sessions": [],
        "risky_moves": [],
        "agent_tests": {
            "files": [f"tests/test_{'x' * 300}_{n}.py" for n in range(30)],
            "tests": 3,
            "passed_with_all": 2,
            "requirements": [{"id": "R-1", "tested": True, "tests": ["t.py::" + "y" * 400]}],
            "credited": ["R-1"],
            "why": None,
        },
        "maintainability": {
            "lines_added": 10,
            "reference_lines_added": 8,
            "files_changed": 2,
            "out_of_scope": [f"other/{n}.py" for n in range(25)],
            "duplicated_blocks": 0,
            "duplicated_lines": 0,
            "complexity_added": 3,
            "most_complex": "pkg/a.py::f (3)",
            "dead_code": [],
            "dead_code_total": 0,
            "unparsed": ["pkg/b.py"],
        },
    }
    work = work_of(document)
    assert work.agent_tests is not None and work.maintainability is not None
    assert len(work.agent_tests.files) == LISTED_MAX
    assert all(len(f) == TARGET_MAX for f in work.agent_tests.files)
    assert len(work.agent_tests.requirements[0].tests[0]) == TARGET_MAX
    assert len(work.maintainability.out_of_scope) == LISTED_MAX
    assert work.maintainability.out_of_scope_total == 25
    assert work.maintainability.unparsed == 1


def test_work_json_without_a_measurement_says_why_and_older_work_json_has_none() -> None:
    why = "not measured: the history could not be read (bad object)"
    work = work_of(
        {
            "sessions": [],
            "risky_moves": [],
            "agent_tests": {"why": why},
            "maintainability": {"why": why},
        }
    )
    assert work.agent_tests is not None and work.agent_tests.why == why
    assert (work.agent_tests.tests, work.agent_tests.credited) == (0, ())
    assert work.maintainability is not None and work.maintainability.lines_added is None
    old = work_of({"sessions": [], "risky_moves": []})
    assert (old.agent_tests, old.maintainability) == (None, None)


def test_a_malformed_quality_entry_is_a_decode_error_naming_its_key() -> None:
    bad = {"sessions": [], "risky_moves": [], "agent_tests": {"files": "tests/test_a.py"}}
    with pytest.raises(DecodeError, match=r"agent_tests\.files"):
        work_of(bad)


def test_continuity_is_read_with_its_statements_bounded_and_counted() -> None:
    statement = {"file": "x" * 300, "line": 3, "says": "old rule", "text": "y" * 300}
    amendment = {
        "amendment": "A1",
        "session": 2,
        "amends": ["CLIN-8"],
        "status": "silent contradiction",
        "statements": [statement] * 25,
        "statements_total": 25,
    }
    document = {"sessions": [], "risky_moves": [], "continuity": {"amendments": [amendment]}}
    kept = work_of(document).continuity
    assert kept is not None and kept.why is None
    [read] = kept.amendments
    assert (read.status, read.statements_total, len(read.statements)) == (
        "silent contradiction",
        25,
        LISTED_MAX,
    )
    assert len(read.statements[0].file) == TARGET_MAX and read.statements[0].line == 3
    assert work_of({"sessions": [], "risky_moves": []}).continuity is None
    unread = work_of({**document, "continuity": {"why": "not measured: x"}}).continuity
    assert unread is not None and (unread.amendments, unread.why) == ((), "not measured: x")


def test_a_malformed_continuity_entry_is_a_decode_error_naming_its_key() -> None:
    bad = {"amendment": "A1", "session": 2, "amends": [], "status": "fine", "statements": []}
    with pytest.raises(DecodeError, match=r"continuity\.amendments\[0\]\.status"):
        work_of({"sessions": [], "risky_moves": [], "continuity": {"amendments": [bad]}})
    with pytest.raises(DecodeError, match=r"continuity\.amendments\[0\]\.statements"):
        work_of(
            {"sessions": [], "risky_moves": [], "continuity": {"amendments": [{"statements": 3}]}}
        )
