"""SpecSnap's own control agents are honest: on every tier, over twenty seeds (the soak run;
seed 13 in the default run, by the second test), none of their sessions records a protocol
breach, and a repeated run gives the same scorecard.

A scorecard is made of two things: the sessions as their records state them (the scorecard's
`sessions`, built by `Session.from_record`) and the grading of the final commit, a function of
its tree alone (tests/functional/test_verify.py regrades byte for byte). So the first test, in
the soak run only, plays every seed and plays every fifth seed (3, 8, 13, 18) again, requiring
both to be identical (timings aside; `SPECSNAP_REPEAT_EVERY_SEED=1` repeats them all; it never
found a difference). The second grades a whole run per tier and control (seed 13, where the
amnesiac used to breach on tier 4): the controls' scores separate them as the protocol says,
and a second run gives the same scorecard, compared whole: in the default run for the two
controls whose continuation depends on what session 1 left (notetaker, amnesiac), in the soak
run for all five (tracker is a notetaker in Stage I; recall and noop do nothing in session 1).

Cost (2 cores, idle, measured): a run without grading and with the meter off (neither changes
what a control does or what the reconciliation sees) takes about 1.9 s on tier 4 and 3 s on
tier 1 (its baseline check grades the baseline commit); 24 runs an item, 20 items; about 3.5
times that on a loaded CI machine. The second test: two graded runs an item for notetaker and
amnesiac, one for the others (two for all in the soak run): 4 minutes of one worker in all,
measured in the default run on 2 cores.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from specsnap.accounts.pools import release_agent_account
from specsnap.rundir import RunSpec
from specsnap.runs import grade_run, prepare_run, run_session
from specsnap.sandbox.gitrepo import rev_parse, tree_of
from specsnap.scorecard.codec import to_json
from specsnap.scorecard.model import Session
from specsnap.tier.loading import load_tier
from tests.conftest import ROOT, SOAK
from tests.functional.cli import card, without_timings

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(os.geteuid() != 0, reason="containment by account needs root"),
]

TIERS = ("tier-1", "tier-2", "tier-3", "tier-4")
CONTROLS = ("notetaker", "tracker", "amnesiac", "recall", "noop")
SEEDS = tuple(range(20))
EVERY_SEED = os.environ.get("SPECSNAP_REPEAT_EVERY_SEED") == "1"
REPEATED_SEEDS = SEEDS if EVERY_SEED else SEEDS[3::5]
REPEATED_SEED = 13
REPEATED_CONTROLS = CONTROLS if SOAK else ("notetaker", "amnesiac")


def _sessions(
    out: Path, tier: str, control: str, seed: int, options: dict[str, str]
) -> list[Session]:
    """Prepare the run and play every session; the sessions as their records state them."""
    prepare_run(RunSpec(str(ROOT / "tiers" / tier), seed, control, options), out)
    count = load_tier(str(ROOT / "tiers" / tier)).sessions
    return [run_session(out, i, environ=os.environ).session for i in range(1, count + 1)]


def _played(out: Path, tier: str, control: str, seed: int) -> tuple[list[Session], Any]:
    """Play the run; its session records, and what its scorecard is made of: the sessions as
    the scorecard shows them (timings aside) and the tree of the final commit."""
    try:
        records = _sessions(out, tier, control, seed, {"meter": "off"})
    finally:
        release_agent_account(out.resolve())
    sandbox = out / "sandbox"
    head = rev_parse(sandbox)
    shown = [without_timings(to_json(s)) for s in records]
    return records, (shown, tree_of(sandbox, head) if head else None)


@pytest.mark.soak  # the default run checks seed 13 for breaches in the graded test below
@pytest.mark.parametrize("control", CONTROLS)
@pytest.mark.parametrize("tier", TIERS)
def test_a_control_never_breaches_over_twenty_seeds_and_repeats_itself(
    tmp_path: Path, tier: str, control: str
) -> None:
    tmp_path.chmod(0o711)
    found, differed = [], []
    for seed in SEEDS:
        records, made_of = _played(tmp_path / str(seed), tier, control, seed)
        found += [(seed, b.session, b.what) for s in records for b in s.breaches]
        cut_off = [s.index for s in records if s.exit.status == "cutoff"]
        if control in ("notetaker", "tracker", "amnesiac"):  # they edit in session 1
            assert cut_off, f"seed {seed}: no session was cut off, nothing was tested"
        if seed in REPEATED_SEEDS:
            _, again = _played(tmp_path / f"{seed}-again", tier, control, seed)
            if again != made_of:
                differed.append(seed)
    assert found == []
    assert differed == [], "a repeated run would give another scorecard"


@pytest.mark.parametrize("control", CONTROLS)
@pytest.mark.parametrize("tier", TIERS)
def test_a_graded_control_run_separates_the_controls_and_repeats_itself(
    tmp_path: Path, tier: str, control: str
) -> None:
    """The controls' scores (docs/agents.md): the notetaker keeps everything, cut off at every
    session but the last; the amnesiac and the memoriser (recall) keep at most a quarter; noop
    nothing. Then, for REPEATED_CONTROLS, the same run again gives the same scorecard."""
    tmp_path.chmod(0o711)
    runs = ("first", "again") if control in REPEATED_CONTROLS else ("first",)
    cards = []
    for name in runs:
        _sessions(tmp_path / name, tier, control, REPEATED_SEED, {})
        grade_run(tmp_path / name)
        graded = card(tmp_path / name)
        assert graded["gate"]["protocol_breaches"] == []
        cards.append(without_timings(graded))
    scores, sessions = cards[0]["scores"], cards[0]["sessions"]
    if control in ("notetaker", "tracker"):
        assert scores["net_retention"] == 1.0, cards[0]["requirements"]
        fired = [(s["cutoff"]["fired"], s["cutoff"]["reason"]) for s in sessions]
        assert fired == [(True, "source-edit")] * (len(sessions) - 1) + [(False, None)], fired
    elif control in ("amnesiac", "recall"):
        assert scores["raw_retention"] <= 0.25, cards[0]["requirements"]
    else:
        assert scores["raw_retention"] == 0.0
    assert all(card == cards[0] for card in cards[1:])
