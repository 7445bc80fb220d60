"""`specsnap review` on a real run: the packet, local ratings recorded and validated, and the
scorecard left as it was."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import FIXTURE_TIERS
from tests.functional.cli import specsnap
from tests.support.scorecards import write_fixture

GOOD = "\n".join(
    ["ratings:", *(f"  q{n}: {{score: 4, reason: 'reason {n}'}}" for n in range(1, 6))]
)


def test_the_packet_and_local_ratings(tmp_path: Path) -> None:
    run = tmp_path / "run"
    made = specsnap(
        "run", "--tier", "90", "--agent", "notetaker", "--seed", "2", "--out", str(run),
        tiers=FIXTURE_TIERS,
    )  # fmt: skip
    assert made.returncode == 0, made.stderr
    before = (run / "scorecard.json").read_bytes()

    packet = specsnap("review", str(run), tiers=FIXTURE_TIERS)
    assert packet.returncode == 0, packet.stderr
    markdown = (run / "review" / "packet.md").read_text()
    data = json.loads((run / "review" / "packet.json").read_text())
    assert "+++ b/units/convert.py" in markdown and "Session 1: cutoff `fired on" in markdown
    assert [q["key"] for q in data["rubric"]] == ["q1", "q2", "q3", "q4", "q5"]
    assert data["scorecard_sha256"] == json.loads(before)["receipt"]["scorecard_sha256"]

    bad = tmp_path / "bad.yaml"
    bad.write_text("ratings:\n  q1: {score: 0, reason: ''}\n")
    refused = specsnap("review", str(run), "--rate", str(bad), "--reviewer", "ann")
    assert refused.returncode == 2
    assert "ratings.q1.score: 0 is less than the minimum of 1" in refused.stderr
    assert "ratings.q1.reason" in refused.stderr
    nameless = specsnap("review", str(run), "--rate", str(bad))
    assert nameless.returncode == 2 and "--reviewer" in nameless.stderr
    assert not (run / "reviews.json").exists()

    good = tmp_path / "good.yaml"
    good.write_text(GOOD)
    first = specsnap("review", str(run), "--rate", str(good), "--reviewer", "ann")
    assert first.returncode == 0, first.stderr
    assert "1 of 2 reviewers have rated" in first.stdout and "reason 1" not in first.stdout
    second = specsnap("review", str(run), "--rate", str(good), "--reviewer", "ben")
    assert "Review complete**: reconciled mean 4.00 of 5" in second.stdout
    again = specsnap("review", str(run), "--rate", str(good), "--reviewer", "ben")
    assert again.returncode == 2 and "ben has rated already" in again.stderr

    assert (run / "scorecard.json").read_bytes() == before
    verified = specsnap("verify", str(run / "scorecard.json"), tiers=FIXTURE_TIERS)
    assert verified.returncode == 0 and "ok   reviews: 2 entries" in verified.stdout

    elsewhere = write_fixture(tmp_path / "other", "tier-1-seed-3")  # another run's scorecard
    (elsewhere.parent / "reviews.json").write_bytes((run / "reviews.json").read_bytes())
    foreign = specsnap("verify", str(elsewhere))
    assert foreign.returncode == 1
    assert "FAIL reviews: the reviews name scorecard" in foreign.stdout
    assert "they review another run" in foreign.stdout
