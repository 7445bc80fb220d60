"""The quality part of work.json on a real tier's repository: measured, or why not."""

from __future__ import annotations

from pathlib import Path

from specsnap.quality.report import quality_report
from specsnap.sandbox.gitrepo import rev_parse
from specsnap.tier.draws import values_for
from specsnap.tier.loading import load_tier
from tests.conftest import FIXTURE_TIERS
from tests.support.repos import commit_all, starter_repo


def test_a_change_outside_the_sprint_is_measured_and_no_test_module_says_so(
    tmp_path: Path,
) -> None:
    tier = load_tier(FIXTURE_TIERS / "tier-90")
    repo = starter_repo(tier, tmp_path / "repo")
    baseline = rev_parse(repo)
    assert baseline is not None
    (repo / "tools.py").write_text("import os\n\n\ndef tool():\n    return 1\n")
    commit_all(repo)
    report = quality_report(tier, repo, baseline, values_for(tier, 0))
    assert report["agent_tests"]["why"] == "the agent added or changed no test module"
    signals = report["maintainability"]
    assert signals["out_of_scope"] == ["tools.py"]
    assert signals["lines_added"] == 5
    assert signals["reference_lines_added"] > 0
    assert signals["dead_code"] == ["tools.py:1 unused import 'os'"]
    assert "continuity" not in report  # a tier without amendments


def test_a_history_that_cannot_be_read_is_not_measured(tmp_path: Path) -> None:
    tier = load_tier(FIXTURE_TIERS / "tier-90")
    repo = starter_repo(tier, tmp_path / "repo")
    report = quality_report(tier, repo, "0" * 40, values_for(tier, 0))
    assert report["agent_tests"]["why"].startswith("not measured: the history could not be read")
    assert report["maintainability"] == report["agent_tests"]


def test_a_tier_with_amendments_reports_continuity_or_why_not(tmp_path: Path) -> None:
    tier = load_tier("tier-4")
    repo = starter_repo(tier, tmp_path / "repo")
    baseline = rev_parse(repo)
    assert baseline is not None
    (repo / "README.md").write_text("Reminders end: Reply C to cancel.\n")
    commit_all(repo)
    report = quality_report(tier, repo, baseline, values_for(tier, 1), reached=2)
    first, second = report["continuity"]["amendments"]
    assert (first["status"], [(s["file"], s["line"]) for s in first["statements"]]) == (
        "silent contradiction",
        [("README.md", 1)],
    )
    assert second["status"] == "not given"  # the run ended before session 3
    unread = quality_report(tier, repo, "0" * 40, values_for(tier, 1))
    assert unread["continuity"] == unread["agent_tests"]
