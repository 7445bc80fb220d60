"""Which stage a run plays, which perturbations it applies, and when it is official."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from specsnap.errors import UsageError
from specsnap.ledger.chain import Outcome
from specsnap.ledger.entry import GENESIS, Entry, encode_entry
from specsnap.ledger.store import LedgerError, append_candidate
from specsnap.stage2.stage import (
    PERTURBATION_KINDS,
    default_stage,
    perturbation_kinds,
    stage_problems,
    stage_unlocked,
)
from tests.support.ledgers import candidate


def test_kinds_come_in_the_order_they_are_applied() -> None:
    assert perturbation_kinds(None) == PERTURBATION_KINDS
    assert perturbation_kinds("stale-note, lost-work") == ("lost-work", "stale-note")
    assert perturbation_kinds(["planted-regression"]) == ("planted-regression",)


@pytest.mark.parametrize("names", ["stale-notes", "", "lost-work,nap"])
def test_an_unknown_kind_lists_the_known_ones(names: str) -> None:
    with pytest.raises(UsageError, match="known: lost-work, teammate-refactor"):
        perturbation_kinds(names)


def test_until_the_ledger_says_otherwise_stage_ii_is_locked_and_stage_i_is_the_default(
    tmp_path: Path,
) -> None:
    assert stage_unlocked(None) is False and default_stage(stage_unlocked(None)) == 1
    ledger = tmp_path / "ledger.jsonl"
    assert stage_unlocked(ledger) is False  # no ledger file yet: locked
    append_candidate(ledger, candidate(seed=1, net=0.5, tes=0.5))
    assert stage_unlocked(ledger) is False and default_stage(stage_unlocked(ledger)) == 1
    append_candidate(ledger, candidate(seed=2))  # PASS with TES >= 75%: the unlock
    assert stage_unlocked(ledger) is True and default_stage(stage_unlocked(ledger)) == 2


def test_a_hand_written_unlock_without_the_ledgers_rebuild_is_an_error_never_unlocked(
    tmp_path: Path,
) -> None:
    made = candidate(seed=2)
    unrebuilt = replace(made, verification=replace(made.verification, checks=("rebuild",)))
    forged = Entry(0, GENESIS, "2025-01-02T03:04:05Z", unrebuilt, False, unlocks_stage_2=True)
    ledger = tmp_path / "ledger.jsonl"
    ledger.write_bytes(encode_entry(forged) + b"\n")
    with pytest.raises(LedgerError, match="not rebuilt by the ledger's verification"):
        stage_unlocked(ledger)
    assert append_candidate(ledger.with_name("new.jsonl"), unrebuilt).outcome is Outcome.REFUSED


def test_a_ledger_that_cannot_be_read_is_an_error_never_locked(
    tmp_path: Path,
) -> None:
    ledger = tmp_path / "ledger.jsonl"
    ledger.write_text("{not json\n")
    with pytest.raises(LedgerError):
        stage_unlocked(ledger)


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
