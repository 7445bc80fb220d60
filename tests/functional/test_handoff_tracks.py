"""One track per handoff mode, end to end with official scorecards: the model-free amnesiac (its
conversation kept in its HOME, as a CLI's is) runs the fixture tier (tier-90, seed 1) under
`fresh`, `resume` and `compact`; `specsnap submit` bundles each, `specsnap ledger append`
rebuilds and records each, and `specsnap leaderboard` ranks each in its own table. Stage II
stays locked: only a `fresh` run can unlock it, and the amnesiac's full-memory pass is not one.

As in the Action's container, SpecSnap runs as root with the tier unreadable to the agent's
account, so nothing keeps these scorecards from being official.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from tests.conftest import FIXTURE_TIERS
from tests.functional.cli import card, differing, specsnap, without_timings

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        os.geteuid() != 0,
        reason="official scorecards need root (an agent account of its own, a root-only tier)",
    ),
]

MODES = ("fresh", "resume", "compact")


@pytest.fixture(scope="module")
def runs() -> Iterator[dict[str, Path]]:
    """tier-90 seed 1 by the amnesiac under each mode, side by side; the runs, bundled."""
    base = Path(tempfile.mkdtemp(prefix="specsnap-tracks-", dir="/tmp"))
    base.chmod(0o711)  # the agent's account reaches each run inside
    tiers = base / "tiers"
    shutil.copytree(FIXTURE_TIERS / "tier-90", tiers / "tier-90")
    subprocess.run(["chmod", "-R", "go-rwx", str(tiers)], check=True)
    tiers.chmod(0o711)

    def run(mode: str) -> Path:
        out = base / mode
        ran = specsnap("run", "--tier", "90", "--seed", "1", "--agent", "amnesiac", "--handoff",
                       mode, "--out", str(out), tiers=tiers)  # fmt: skip
        assert ran.returncode in (0, 1), ran.stdout + ran.stderr
        submitted = specsnap("submit", str(out), tiers=tiers)
        assert submitted.returncode == 0, submitted.stderr
        return out

    with ThreadPoolExecutor(len(MODES)) as pool:
        made = dict(zip(MODES, pool.map(run, MODES), strict=True))
    yield {"tiers": tiers, **made}
    shutil.rmtree(base, ignore_errors=True)


def test_each_mode_is_official_labelled_and_scores_what_its_handoff_keeps(
    runs: dict[str, Path],
) -> None:
    cards = {mode: card(runs[mode]) for mode in MODES}
    for mode, data in cards.items():
        assert data["official"], (mode, data["unofficial_reasons"])
        assert data["handoff"] == data["receipt"]["handoff"] == mode
        assert data["sessions"][0]["cutoff"]["fired"]
    fresh, resume, compact = (cards[mode] for mode in MODES)
    # fresh: nothing moved, the amnesiac keeps only the edit it was cut off in.
    assert "handoff" not in fresh["sessions"][1]
    assert fresh["scores"]["raw_retention"] < 1.0 and not fresh["scores"]["pass"]
    # resume: its store (one file) moved and named the session; it finished the whole sprint.
    moved = resume["sessions"][1]["handoff"]
    assert moved["state_files"] == 1 and moved["session_id"] and moved["error"] is None
    assert resume["scores"]["raw_retention"] == 1.0 and resume["scores"]["pass"]
    # compact: the same store in, compacted by the control before it goes on; the sprint's
    # headings are enough on this tier, so its card differs from resume's only in the label.
    changed = differing(*(without_timings(c) for c in (resume, compact)))
    assert changed == {".handoff", ".receipt.handoff", ".sessions[1].handoff.mode"}, changed


def test_the_ledger_and_the_leaderboard_keep_one_track_per_mode(
    runs: dict[str, Path], tmp_path: Path
) -> None:
    tiers = runs["tiers"]
    ledger = tmp_path / "ledger.jsonl"
    for mode in MODES:
        bundle = runs[mode] / "submission.specsnap.tar"
        done = specsnap("ledger", "append", str(bundle), "--ledger", str(ledger), tiers=tiers)
        assert done.returncode == 0 and "appended: entry" in done.stdout, done.stdout + done.stderr
    entries = [json.loads(line) for line in ledger.read_text().splitlines()]
    assert [e["candidate"].get("handoff") for e in entries] == [None, "resume", "compact"]
    # Stage II stays locked: the passing runs are not `fresh`.
    status = specsnap("ledger", "status", "--ledger", str(ledger), "--json", tiers=tiers)
    state = json.loads(status.stdout)
    assert state["stage_required"] == 1 and state["unlocked_by"] is None, state
    assert not any(e["unlocks_stage_2"] for e in entries)
    site = tmp_path / "site"
    built = specsnap("leaderboard", str(ledger), "--out", str(site), tiers=tiers)
    assert built.returncode == 0, built.stderr
    page = (site / "index.html").read_text()
    for anchor in ('id="stage-1-tier-90"', 'id="stage-1-tier-90-resume"',
                   'id="stage-1-tier-90-compact"'):  # fmt: skip
        assert page.count(anchor) == 1, anchor
    assert page.count("(resume handoff)") >= 1 and page.count("(compact handoff)") >= 1
    summary = specsnap(
        "aggregate", "--json", *(str(runs[m] / "scorecard.json") for m in MODES), tiers=tiers
    )
    tracks = {(s["handoff"], s["runs"]) for s in json.loads(summary.stdout)}
    assert tracks == {(mode, 1) for mode in MODES}
