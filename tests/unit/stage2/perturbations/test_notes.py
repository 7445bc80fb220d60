"""The stale value a note gets: which values qualify, and whole-token replacement (pure)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from specsnap.sandbox.gitrepo import BASELINE_IDENTITY, own_git
from specsnap.stage2.perturbations.notes import (
    choose_stale,
    history_stating,
    replace_value,
    stale_candidates,
    states,
    unambiguous,
)
from specsnap.tier.draws import values_for
from specsnap.tier.model import Tier
from tests.support.repos import starter_repo


@pytest.mark.parametrize(
    ("text", "value", "found"),
    [
        ("from 1000 g on", "1000", True),
        ("(1000).", "1000", True),
        ("10000 g", "1000", False),
        ("1000.5 g", "1000", False),
        ("21000", "1000", False),
        ("at 0.80 EUR.", "0.80", True),
        ("`Catalog.find_by_gtin(gtin)`", "find_by_gtin", True),
        ("find_by_gtin_all", "find_by_gtin", False),
        ("unknown weight unit 'oz'", "unknown weight unit", True),
    ],
)
def test_values_are_found_as_whole_tokens(text: str, value: str, found: bool) -> None:
    assert states(text, value) is found


def test_every_occurrence_is_replaced_and_counted() -> None:
    text = "from 1000 g; 1000 g exactly; not 10000"
    assert replace_value(text, "1000", "2000") == ("from 2000 g; 2000 g exactly; not 10000", 2)
    assert replace_value("a\\b 25", "25", "3\\0") == ("a\\b 3\\0", 1)


def test_a_value_qualifies_only_when_its_text_states_no_other_choice() -> None:
    assert unambiguous("fee 25.00 EUR", "25.00", ("25.00", "30.00"))
    assert not unambiguous("fee 25.00 EUR, later 30.00", "25.00", ("25.00", "30.00"))
    assert not unambiguous("split over 3 warehouses", "3", ("2", "3"))  # a list number
    assert not unambiguous("nothing here", "25.00", ("25.00", "30.00"))


def test_candidates_are_values_the_notes_state_and_the_code_lacks(tier90: Tier) -> None:
    values = values_for(tier90, 3)
    heavy = str(values["heavy_from"])
    notes = {"NOTES.md": f"REP-1: kg from {heavy} g"}
    (candidate,) = stale_candidates(tier90, values, notes, code="")
    assert (candidate.param, candidate.requirement, candidate.value) == (
        "heavy_from",
        "REP-1",
        heavy,
    )
    assert stale_candidates(tier90, values, notes, code=f"if grams >= {heavy}:") == []
    assert stale_candidates(tier90, values, {"NOTES.md": "no values"}, code="") == []


def test_the_wrong_value_is_another_choice_of_the_same_parameter(tier90: Tier) -> None:
    values = values_for(tier90, 3)
    notes = {"NOTES.md": f"kg from {values['heavy_from']} g"}
    candidates = stale_candidates(tier90, values, notes, code="")
    chosen, wrong = choose_stale(candidates, random.Random("seeded"))
    assert wrong != chosen.value and wrong in chosen.choices
    again = choose_stale(candidates, random.Random("seeded"))
    assert again == (chosen, wrong)


def test_committed_notes_and_messages_are_carried_state_a_stale_note_cannot_change(
    tier90: Tier, tmp_path: Path
) -> None:
    repo = starter_repo(tier90, tmp_path / "repo")
    baseline = own_git(repo, "rev-parse", "HEAD").decode().strip()
    (repo / "PLAN.md").write_text("heavy from 2000 g\n")
    (repo / "units" / "extra.py").write_text("HEAVY = 2000\n")  # code, not a note
    own_git(repo, "add", "-A")
    own_git(repo, "commit", "-qm", "plan: kg from 2000", env=BASELINE_IDENTITY)
    found = history_stating(repo, baseline, "2000")
    assert len(found) == 2 and found[1] == "PLAN.md as committed", found
    assert found[0].startswith("the message of commit ")
    assert history_stating(repo, baseline, "1000") == []
