"""Stage II's pure checks of a tier's text: what the controls read from it."""

from __future__ import annotations

import shutil
from pathlib import Path

import yaml

from specsnap.stage2.checks import notes_read_check
from specsnap.tier.draws import values_for
from specsnap.tier.loading import load_tier
from tests.conftest import FIXTURE_TIERS


def results(root: Path, seeds: range) -> list[tuple[bool, str]]:
    tier = load_tier(str(root))
    found: list[tuple[bool, str]] = []
    for seed in seeds:
        notes_read_check(tier, seed, lambda ok, what: found.append((ok, what)))
    return found


def test_a_text_that_names_only_another_choice_is_a_misread_value(tmp_path: Path) -> None:
    """REP-1 draws 1000 or 2000 g. Its text as shipped names the drawn value. A text that
    writes the drawn value glued to its unit (`2000g`, no token) and gives an example of 1000 g
    names only 1000: the controls would write that variant, so the seeds drawing 2000 fail."""
    assert all(ok for ok, _ in results(FIXTURE_TIERS / "tier-90", range(6)))

    root = tmp_path / "tier-90"
    shutil.copytree(FIXTURE_TIERS / "tier-90", root)
    data = yaml.safe_load((root / "tier.yaml").read_text())
    rep = data["requirements"][1]
    rep["text"] = "weight_line shows weights from ${heavy_from}g on in kg (e.g. 1000 g -> 1.00 kg)."
    (root / "tier.yaml").write_text(yaml.safe_dump(data))
    tier = load_tier(str(root))
    found = results(root, range(6))
    for seed, (ok, what) in zip(range(6), found, strict=True):
        drawn = values_for(tier, seed)["heavy_from"]
        assert ok == (drawn == 1000), (seed, drawn, what)
        if not ok:
            assert what.endswith("but REP-1 names only '1000' of heavy_from"), what
