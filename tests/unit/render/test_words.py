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
from specsnap.scorecard.model import (
    BaselineFailure,
    Breach,
    Cutoff,
    Exit,
    ProtectedChange,
    Tokens,
    WiringViolation,
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
