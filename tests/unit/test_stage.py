"""Which stage a run plays, which perturbations it applies, and when it is official."""

from __future__ import annotations

import pytest

from specsnap.errors import UsageError
from specsnap.stage import (
    PERTURBATION_KINDS,
    default_stage,
    perturbation_kinds,
    stage_problems,
    stage_unlocked,
)


def test_kinds_come_in_the_order_they_are_applied() -> None:
    assert perturbation_kinds(None) == PERTURBATION_KINDS
    assert perturbation_kinds("stale-note, lost-work") == ("lost-work", "stale-note")
    assert perturbation_kinds(["planted-regression"]) == ("planted-regression",)


@pytest.mark.parametrize("names", ["stale-notes", "", "lost-work,nap"])
def test_an_unknown_kind_lists_the_known_ones(names: str) -> None:
    with pytest.raises(UsageError, match="known: lost-work, teammate-refactor"):
        perturbation_kinds(names)


def test_until_the_ledger_says_otherwise_stage_ii_is_locked_and_stage_i_is_the_default() -> None:
    assert stage_unlocked() is False
    assert default_stage() == 1


def test_a_stage_ii_run_before_the_unlock_is_unofficial_and_says_why() -> None:
    (reason,) = stage_problems(2, unlocked=False, kinds=PERTURBATION_KINDS)
    assert "Stage II is locked" in reason
    assert stage_problems(2, unlocked=True, kinds=PERTURBATION_KINDS) == []
    assert stage_problems(1, unlocked=False, kinds=()) == []


def test_after_the_unlock_stage_i_and_partial_stage_ii_are_unofficial() -> None:
    assert "every evaluation runs Stage II" in stage_problems(1, unlocked=True, kinds=())[0]
    (partial,) = stage_problems(2, unlocked=True, kinds=("stale-note",))
    assert "only some perturbations were applied (stale-note)" in partial
    assert len(stage_problems(2, unlocked=False, kinds=("stale-note",))) == 2
