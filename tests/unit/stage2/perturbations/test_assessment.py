"""Detected and repaired, from the graded commit, the grade and the tracker's log (pure)."""

from __future__ import annotations

from typing import Any

from specsnap.stage2.perturbations.assessment import Evidence, counts, touches
from specsnap.stage2.perturbations.kinds import assess
from specsnap.stage2.perturbations.workspace import blob_id
from specsnap.tier.model import Tier

BEFORE = "def to_grams(v, unit):\n    factor = F[unit]\n    return v * factor\n\n\nTAIL = 1\n"
PLANTED = (
    "def to_grams(v, unit):\n    factor = F[unit]\n    return round(v) * factor\n\n\nTAIL = 1\n"
)
BLOBS = {blob_id(text.encode()): text.encode() for text in (BEFORE, PLANTED)}


def evidence(**given: Any) -> Evidence:
    defaults: dict[str, Any] = {
        "head": {},
        "history": frozenset(),
        "passed": {},
        "failing": frozenset(),
        "shown": {},
        "blob": lambda blob: BLOBS[blob],
    }
    return Evidence(**{**defaults, **given})


def with_head(text: str) -> dict[str, str]:
    BLOBS[blob_id(text.encode())] = text.encode()
    return {"units/convert.py": blob_id(text.encode())}


def test_touching_means_changing_the_planted_lines_or_the_lines_beside_them() -> None:
    reverted = BEFORE
    special = PLANTED.replace(
        "    return round", "    if v == 0.5:\n        return 500.0\n    return round"
    )
    elsewhere = PLANTED.replace("TAIL = 1", "TAIL = 2")
    assert touches(BEFORE, PLANTED, reverted)
    assert touches(BEFORE, PLANTED, special)
    assert not touches(BEFORE, PLANTED, elsewhere)
    assert not touches(BEFORE, PLANTED, PLANTED)


def regression(**outcome: Any) -> dict[str, Any]:
    return {
        "kind": "planted-regression",
        "session": 2,
        "applied": True,
        "what": "a teammate committed …",
        "commit": "c" * 40,
        "changes": [
            {
                "path": "units/convert.py",
                "before": blob_id(BEFORE.encode()),
                "after": blob_id(PLANTED.encode()),
            }
        ],
        **outcome,
    }


def test_a_regression_is_detected_by_the_fix_and_repaired_only_when_its_checks_pass(
    tier90: Tier,
) -> None:
    history = frozenset({"c" * 40})
    checks = frozenset(tier90.stage2.regression.hidden_tests) if tier90.stage2 else frozenset()
    special = PLANTED.replace(
        "    return round", "    if v == 0.5:\n        return 500.0\n    return round"
    )
    half = assess(
        tier90, regression(), evidence(head=with_head(special), history=history, failing=checks)
    )
    assert (half.detected, half.repaired) == (True, False)
    fixed = assess(tier90, regression(), evidence(head=with_head(BEFORE), history=history))
    assert (fixed.detected, fixed.repaired) == (True, True)
    untouched_but_failing = assess(
        tier90, regression(), evidence(head=with_head(PLANTED), history=history, failing=checks)
    )
    assert (untouched_but_failing.detected, untouched_but_failing.repaired) == (False, False)


def test_an_ungraded_commit_repairs_nothing(tier90: Tier) -> None:
    ungraded = evidence(head=with_head(BEFORE), failing=frozenset({"(grading)"}))
    verdict = assess(tier90, regression(), ungraded)
    assert (verdict.detected, verdict.repaired) == (True, False)  # left HEAD's history too


def stale(session: int = 2) -> dict[str, Any]:
    return {
        "kind": "stale-note",
        "session": session,
        "applied": True,
        "what": "the agent's notes now say 1000 where they said 2000",
        "requirement": "REP-1",
        "commit": None,
        "changes": [{"path": "NOTES.md", "before": "2000", "after": "1000"}],
    }


def test_a_stale_note_is_detected_by_reading_its_ticket_after_it_was_planted(tier90: Tier) -> None:
    read_late = evidence(shown={1: frozenset({"REP-1"}), 2: frozenset({"UNIT-1"})})
    assert assess(tier90, stale(), read_late).detected is False
    read = evidence(shown={2: frozenset({"REP-1"})}, passed={"REP-1": True})
    verdict = assess(tier90, stale(), read)
    assert (verdict.detected, verdict.repaired, verdict.requirement) == (True, True, "REP-1")
    assert verdict.changes[0].before == "2000" and verdict.changes[0].after == "1000"


def lost(settled: str, lost_lines: list[str]) -> dict[str, Any]:
    return {
        "kind": "lost-work",
        "session": 2,
        "applied": True,
        "what": "reverted",
        "changes": [
            {
                "path": "units/convert.py",
                "before": "a" * 40,
                "after": blob_id(BEFORE.encode()),
                "settled": settled,
                "lost_lines": lost_lines,
            }
        ],
    }


def test_lost_work_is_repaired_when_the_lines_it_added_are_back(tier90: Tier) -> None:
    settled = blob_id(PLANTED.encode())  # a teammate's commit changed the file after the revert
    record = lost(settled, ["FACTORS['lb'] = 453.59237"])
    untouched = assess(tier90, record, evidence(head=with_head(PLANTED)))
    assert (untouched.detected, untouched.repaired) == (False, False)
    redone = assess(
        tier90, record, evidence(head=with_head(PLANTED + "FACTORS['lb'] = 453.59237\n"))
    )
    assert (redone.detected, redone.repaired) == (True, True)
    other = assess(tier90, record, evidence(head=with_head(PLANTED + "FACTORS['st'] = 6350\n")))
    assert (other.detected, other.repaired) == (True, False)


def test_a_refactor_or_a_perturbation_not_applied_is_no_fault(tier90: Tier) -> None:
    refactor = {
        "kind": "teammate-refactor",
        "session": 2,
        "applied": True,
        "what": "moved",
        "commit": "d" * 40,
        "changes": [],
    }
    skipped = {**stale(), "applied": False, "what": "not applied: the agent wrote no note"}
    found = [assess(tier90, r, evidence()) for r in (refactor, skipped)]
    assert [(p.detected, p.repaired) for p in found] == [(None, None), (None, None)]
    repaired = assess(tier90, stale(), evidence(passed={"REP-1": True}))
    assert counts([*found, repaired]) == (1, 0, 1)


def test_a_stale_note_with_no_note_to_make_stale_still_counts_as_a_fault(tier90: Tier) -> None:
    """An agent that keeps nothing is charged the fault a notetaker is, never a smaller
    denominator: reported as not applied, judged neither detected nor repaired."""
    nothing = {
        **stale(),
        "applied": False,
        "what": "not applied: the agent wrote no note",
        "nothing_carried": True,
    }
    found = assess(tier90, nothing, evidence(passed={"REP-1": True}, shown={2: {"REP-1"}}))
    assert (found.applied, found.detected, found.repaired) == (False, False, False)
    regression = assess(tier90, {**nothing, "kind": "lost-work"}, evidence())
    assert (regression.detected, regression.repaired) == (None, None)  # nothing lost: no fault
    assert counts([found, regression]) == (1, 0, 0)
