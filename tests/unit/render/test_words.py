"""One vocabulary: how sessions ended, cutoffs, tokens and findings, said the same everywhere."""

from __future__ import annotations

import pytest

from specsnap.render.words import (
    MARKDOWN,
    TERMINAL,
    cutoff_story,
    duration,
    ending,
    finding_place,
    finding_text,
    tokens_story,
)
from specsnap.render.work_words import (
    agent_tests_text,
    continuity_text,
    maintainability_text,
    risky_move_text,
    work_line,
)
from specsnap.scorecard.model import (
    AgentTests,
    AmendmentContinuity,
    BaselineFailure,
    Breach,
    Continuity,
    Cutoff,
    Exit,
    Maintainability,
    OldRuleStatement,
    ProtectedChange,
    RiskyMove,
    Tokens,
    Trajectory,
    WiringViolation,
    WorkSession,
)


@pytest.mark.parametrize(
    ("cutoff", "said"),
    [
        (Cutoff(False, False, None, None, None, None, None), "not armed"),
        (Cutoff(True, False, None, None, None, None, None), "armed, never fired"),
        (
            Cutoff(True, True, "source-edit", "a/b.py", "created", 0.4, 12.34),
            "fired after 12.3 s on `a/b.py` (created)",
        ),
        (
            Cutoff(True, True, "commit-attempt", None, None, None, 75.0),
            "fired after 1 min 15 s on a commit attempt (refused by the hook)",
        ),
        (
            Cutoff(True, True, "commit", None, None, None, None),
            "fired on HEAD changing while armed (a commit past the hook)",
        ),
    ],
)
def test_where_and_when_the_cutoff_fired(cutoff: Cutoff, said: str) -> None:
    assert cutoff_story(cutoff, MARKDOWN) == said
    assert "None" not in cutoff_story(cutoff, TERMINAL)


@pytest.mark.parametrize(
    ("exit_info", "said"),
    [
        (Exit("completed", 0, None), "finished"),
        (Exit("cutoff", None, None), "cut off"),
        (Exit("timeout", None, None), "timed out"),
        (Exit("crashed", 3, None), "crashed (exit code 3)"),
        (Exit("crashed", -11, "SIGSEGV"), "crashed (SIGSEGV)"),
        (Exit("failed-to-start", None, None), "failed to start"),
    ],
)
def test_how_a_session_ended_said_plainly(exit_info: Exit, said: str) -> None:
    assert ending(exit_info, MARKDOWN) == said


def test_tokens_carry_their_source_and_unknown_is_never_zero() -> None:
    assert tokens_story(Tokens(1200, 30, 0, 4000, "metered")) == "1,200 / 30 / 0 / 4,000 (metered)"
    assert tokens_story(Tokens(0, 0, 0, 0, "unknown")) == "unknown"


def test_durations() -> None:
    assert [duration(s) for s in (0.04, 59.94, 60, 3599.6, None)] == [
        "0.0 s",
        "59.9 s",
        "1 min 00 s",
        "60 min 00 s",
        "n/a",
    ]


def test_each_kind_of_finding_has_its_words_and_its_place() -> None:
    findings = [
        BaselineFailure("tests/test_a.py::test_x", "failed"),
        ProtectedChange("wiring.yaml", "deleted"),
        WiringViolation("a.b", "c.d", "a/b.py", 0, "a may import nothing", "static"),
        Breach(2, "commit 0123 landed while armed"),
        Breach(None, "product code imports pytest", "a/b.py", 4),
    ]
    assert [finding_text(f, TERMINAL) for f in findings] == [
        "baseline test tests/test_a.py::test_x: failed",
        "protected file wiring.yaml deleted",
        "module boundary: a.b imports c.d at a/b.py:0 (static): a may import nothing",
        "protocol breach in session 2: commit 0123 landed while armed",
        "protocol breach in the graded code: product code imports pytest",
    ]
    assert [finding_place(f) for f in findings] == [
        ("tests/test_a.py", 1),
        ("wiring.yaml", 1),
        ("a/b.py", 1),
        None,
        ("a/b.py", 4),
    ]
    assert finding_text(findings[1], MARKDOWN) == "protected file `wiring.yaml` deleted"


def test_a_session_without_a_trajectory_says_why() -> None:
    why = "unavailable: the session was not metered (meter=off)"
    assert work_line(WorkSession(3, None, why), MARKDOWN) == (
        "session 3: trajectory unavailable: the session was not metered (meter=off)"
    )


def test_a_one_turn_session_without_an_edit() -> None:
    actions = {"read": 1, "edit": 0, "shell": 0, "search": 0, "other": 0}
    work = WorkSession(1, Trajectory(1, actions, 0, 0, None, None, 0))
    assert work_line(work, TERMINAL) == (
        "session 1: 1 turn; actions 1 read; tests run 0, longest failing streak 0; no edit"
    )


def test_a_risky_move_names_its_command_or_file_and_where() -> None:
    shell = RiskyMove(2, "step 4", "no-verify", command="git commit --no-verify -m x")
    history = RiskyMove(None, "0123456789ab", "test-deleted", file="tests/test_a.py")
    assert risky_move_text(shell, MARKDOWN) == (
        "hooks skipped (--no-verify): `git commit --no-verify -m x` (session 2, step 4)"
    )
    assert risky_move_text(history, TERMINAL) == (
        "test deleted: tests/test_a.py (session unknown, 0123456789ab)"
    )


def test_the_agent_s_tests_say_what_they_test_or_why_they_were_not_measured() -> None:
    none = AgentTests((), 0, 0, (), (), "the agent added or changed no test module")
    assert agent_tests_text(none, 9, TERMINAL) == (
        "agent's tests: the agent added or changed no test module"
    )
    partial = AgentTests(
        ("tests/test_a.py",), 1, 1, ("R-1",), (), "not measured from R-2 on: it ran over 30 s"
    )
    assert agent_tests_text(partial, 3, MARKDOWN) == (
        "agent's tests: 1 test in 1 file test 1 of 3 requirements (`R-1`); "
        "not measured from R-2 on: it ran over 30 s"
    )


def test_maintainability_says_each_signal_or_that_it_was_not_measured() -> None:
    unread = Maintainability(
        None, None, None, (), 0, None, None, None, None, (), 0, 0, "not measured: no history"
    )
    assert maintainability_text(unread, TERMINAL) == "maintainability: not measured: no history"
    many = Maintainability(
        40, None, 3, ("a.py",), 5, None, None, None, None, ("x.py:1 unused import 'os'",), 4, 2
    )
    assert maintainability_text(many, TERMINAL) == (
        "maintainability: 40 source lines added; duplication not measured; "
        "dead code 4 (x.py:1 unused import 'os', …); "
        "5 source files outside the sprint's packages (a.py, …); 2 files not parsed"
    )


def test_continuity_names_a_few_statements_per_amendment_and_counts_the_rest() -> None:
    stated = tuple(OldRuleStatement(f"docs/{n}.md", n, "old rule", "x") for n in range(1, 5))
    kept = Continuity(
        (
            AmendmentContinuity("A1", 2, ("R-1", "R-2"), "revised", (), 0),
            AmendmentContinuity("A2", 3, ("R-3",), "silent contradiction", stated, 7),
            AmendmentContinuity("A3", 4, ("R-4",), "not given", (), 0),
        )
    )
    assert continuity_text(kept, TERMINAL) == (
        "continuity: A1 (session 2, R-1, R-2) revised; A2 (session 3, R-3) silent contradiction: "
        "docs/1.md:1 (old rule), docs/2.md:2 (old rule), docs/3.md:3 (old rule), and 4 more; "
        "A3 (session 4, R-4) not given"
    )
    unread = Continuity((), "not measured: the history could not be read (x)")
    assert continuity_text(unread, TERMINAL) == (
        "continuity: not measured: the history could not be read (x)"
    )
