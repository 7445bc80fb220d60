"""Every shipped tier is sound and separates the control agents (docs/protocol.md).

The soak run (`scripts/test.sh --soak`) validates each tier over two seeds (every check, and each
seed's reference against the other's values; 5 to 7 minutes a tier on 2 cores); `specsnap tiers
validate --seeds 5` is the full proof. The default run grades the controls on every tier in
tests/functional/test_fairness_controls.py (seed 13, in-process); the soak run also grades them
here, through the command (seed 5).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from specsnap.tier.loading import list_tiers, load_tier
from tests.functional.cli import card, specsnap

TIERS = list_tiers()
pytestmark = pytest.mark.slow


@pytest.mark.soak
@pytest.mark.parametrize("tier", TIERS)
def test_tier_validates(tier: str) -> None:
    proc = specsnap("tiers", "validate", tier, "--seeds", "2", timeout=900)
    assert proc.returncode == 0, proc.stdout
    assert f"{tier}:" in proc.stdout and "valid" in proc.stdout.splitlines()[-1]


@pytest.mark.soak
@pytest.mark.parametrize("tier", TIERS)
def test_notetaker_keeps_everything_and_amnesiac_loses_it(tier: str, tmp_path: Path) -> None:
    sessions = load_tier(tier).sessions
    note = tmp_path / "notetaker"
    proc = specsnap(
        "run", "--tier", tier, "--agent", "notetaker", "--seed", "5", "--out", str(note)
    )
    assert proc.returncode == 0, proc.stderr + proc.stdout
    noted = card(note)
    assert noted["scores"]["net_retention"] == 1.0
    fired = [s["cutoff"]["fired"] for s in noted["sessions"]]
    assert fired == [True] * (sessions - 1) + [False]
    assert [s["cutoff"]["reason"] for s in noted["sessions"][:-1]] == ["source-edit"] * (
        sessions - 1
    )

    amnesiac = tmp_path / "amnesiac"
    specsnap("run", "--tier", tier, "--agent", "amnesiac", "--seed", "5", "--out", str(amnesiac))
    forgot = card(amnesiac)
    assert forgot["scores"]["raw_retention"] <= 0.25 < noted["scores"]["raw_retention"]

    recall = tmp_path / "recall"
    specsnap("run", "--tier", tier, "--agent", "recall", "--seed", "5", "--out", str(recall))
    recalled = card(recall)
    assert recalled["scores"]["raw_retention"] <= 0.25, recalled["requirements"]

    noop = tmp_path / "noop"
    specsnap("run", "--tier", tier, "--agent", "noop", "--seed", "5", "--out", str(noop))
    assert card(noop)["scores"]["raw_retention"] == 0.0


@pytest.mark.parametrize("tier", [t for t in TIERS if load_tier(t).amendments])
def test_following_only_the_original_sprint_loses_every_amended_requirement(
    tier: str, tmp_path: Path
) -> None:
    amended = {i for a in load_tier(tier).amendments for i in a.amends}
    out = tmp_path / "original"
    specsnap(
        "run",
        "--tier",
        tier,
        "--agent",
        "notetaker",
        "--agent-opt",
        "contract=original",
        "--out",
        str(out),
    )
    results = {r["id"]: r["passed"] for r in card(out)["requirements"]}
    assert {i for i, ok in results.items() if not ok} == amended


def test_stage_ii_on_a_real_tier_is_recovered_by_the_tracker_control(tmp_path: Path) -> None:
    """Every perturbation on tier 2 (the one real-tier Stage II run in CI): the tracker control
    follows the teammate's move, fixes the regression at its cause, and repairs its notes; every
    requirement it delivers is recovered from the tracker, so it keeps nothing and does not pass."""
    out = tmp_path / "tracker"
    proc = specsnap(
        "run", "--tier", "2", "--agent", "tracker", "--seed", "5", "--stage", "2", "--out", str(out)
    )
    assert proc.returncode == 1, proc.stderr + proc.stdout
    tracked = card(out)
    assert tracked["scores"]["net_retention"] == 1.0
    assert tracked["scores"]["retained_without_recovery"] == 0.0
    assert {r["retention"] for r in tracked["requirements"]} == {"recovered"}
    stage2 = tracked["stage2"]
    assert [p["applied"] for p in stage2["perturbations"]] == [True] * 4
    assert (stage2["faults"], stage2["detected"], stage2["repaired"]) == (3, 3, 3)
    assert stage2["channel"] == "recovered" and stage2["consultations"] >= 10
    sandbox = out / "sandbox"
    assert (sandbox / "orders" / "lifecycle.py").is_file()
    assert not (sandbox / "orders" / "state.py").exists()
