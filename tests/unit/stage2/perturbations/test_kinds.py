"""Each kind of perturbation has one registry entry, in the order the scorecard names them, and
words to be shown with."""

from __future__ import annotations

from typing import get_args

from specsnap.render.words import PERTURBATIONS
from specsnap.scorecard.model import PerturbationKind
from specsnap.stage2.perturbations.kinds import KINDS
from specsnap.stage2.stage import PERTURBATION_KINDS


def test_one_entry_per_kind_in_the_order_they_are_applied() -> None:
    assert tuple(KINDS) == get_args(PerturbationKind) == PERTURBATION_KINDS
    assert all(name == kind.name for name, kind in KINDS.items())


def test_every_kind_but_the_refactor_is_a_fault_with_a_judge() -> None:
    assert [name for name, kind in KINDS.items() if kind.judge is None] == ["teammate-refactor"]


def test_every_kind_has_its_words() -> None:
    assert set(PERTURBATIONS) == set(KINDS)
