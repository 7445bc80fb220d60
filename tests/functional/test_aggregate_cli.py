"""`specsnap aggregate` as a user runs it: a table or JSON over scorecard files, exit codes."""

from __future__ import annotations

import json
from pathlib import Path

from tests.functional.cli import specsnap
from tests.support.scorecards import FIXTURES, fixture_document


def test_the_table_and_the_json_over_fixture_scorecards() -> None:
    files = [str(p) for p in sorted(FIXTURES.glob("*.json"))]
    table = specsnap("aggregate", *files)
    assert table.returncode == 0, table.stderr
    lines = table.stdout.splitlines()
    assert lines[0].split()[:4] == ["stage", "tier", "agent", "runs"]
    assert any(line.split()[:4] == ["I", "tier-2", "notetaker", "2"] for line in lines)
    as_json = specsnap("aggregate", "--json", *files)
    groups = {(g["stage"], g["tier_id"], g["agent"]): g for g in json.loads(as_json.stdout)}
    tier2 = groups[(1, "tier-2", "notetaker")]
    assert tier2["runs"] == 2 and tier2["net_retention"]["mean"] == 0.3125
    assert tier2["net_retention"]["low"] is None  # two runs: no interval
    assert groups[(1, "tier-4", "amnesiac")]["tes"]["count"] == 0
    assert groups[(2, "tier-2", "notetaker")]["runs"] == 1  # Stage II runs are a group of their own


def test_an_edited_scorecard_is_bad_input(tmp_path: Path) -> None:
    document = fixture_document("tier-1-seed-3")
    document["scores"]["net_retention"] = 0.5
    edited = tmp_path / "scorecard.json"
    edited.write_text(json.dumps(document))
    done = specsnap("aggregate", str(edited))
    assert done.returncode == 2
    assert "does not match its receipt's digest" in done.stderr
    assert specsnap("aggregate", str(tmp_path / "missing.json")).returncode == 2
