"""The multi-seed summary: groups, means, seeded intervals, TES over known tokens, PASS rate."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from specsnap.errors import UsageError
from specsnap.render.summary import render_summaries
from specsnap.scorecard.aggregate import (
    MIN_RUNS,
    Result,
    agent_label,
    estimate,
    load_results,
    result_of,
    stage_of,
    summarize,
    summary_json,
)
from tests.support.ledgers import scorecard
from tests.support.scorecards import fixture_card, fixture_document


def result(seed: int, net: float, *, tier: str = "tier-2", agent: str = "a", stage: int = 1,
           tes: float | None = 0.5) -> Result:  # fmt: skip
    return Result(tier, agent, stage, seed, net, net, tes, net >= 0.75)


def test_groups_by_stage_tier_and_agent_in_numeric_tier_order() -> None:
    results = [
        result(1, 0.5, tier="tier-10"),
        result(1, 0.5, tier="tier-2", agent="b"),
        result(1, 0.5, tier="tier-2", agent="a", stage=2),
        result(2, 0.5, tier="tier-2", agent="a"),
    ]
    keys = [(s.stage, s.tier_id, s.agent) for s in summarize(results)]
    assert keys == [(1, "tier-2", "a"), (1, "tier-2", "b"), (1, "tier-10", "a"), (2, "tier-2", "a")]


def test_means_intervals_and_pass_rate_over_five_seeds() -> None:
    nets = [1.0, 0.75, 0.5, 1.0, 0.875]
    (summary,) = summarize(result(seed, net) for seed, net in zip(range(5), nets, strict=True))
    assert summary.runs == 5 and summary.seeds == (0, 1, 2, 3, 4)
    assert summary.net_retention.mean == pytest.approx(0.825)
    low, high = summary.net_retention.low, summary.net_retention.high
    assert low is not None and high is not None
    assert min(nets) <= low < 0.825 < high <= max(nets)
    assert summary.passed == 4 and summary.pass_rate == pytest.approx(0.8)
    assert summarize(result(s, n) for s, n in enumerate(nets)) == (summary,)  # seeded


def test_no_interval_below_the_minimum_number_of_runs() -> None:
    assert MIN_RUNS == 3
    assert estimate([0.5, 1.0]).mean == pytest.approx(0.75)
    assert (estimate([0.5, 1.0]).low, estimate([0.5, 1.0]).high) == (None, None)
    assert estimate([]).mean is None
    assert estimate([0.5, 0.5, 0.5]).low == estimate([0.5, 0.5, 0.5]).high == 0.5


def test_tes_is_averaged_over_the_runs_whose_tokens_are_known() -> None:
    (summary,) = summarize(
        [result(1, 1.0, tes=0.8), result(2, 1.0, tes=None), result(3, 1.0, tes=0.6)]
    )
    assert summary.tes.count == 2 and summary.tes.mean == pytest.approx(0.7)
    text = render_summaries([summary])
    assert "70.0% (2 of 3 known)" in text


def test_the_agent_includes_its_options_and_the_stage_defaults_to_one() -> None:
    assert agent_label("claude-code", {}) == "claude-code"
    assert agent_label("codex", {"model": "o4", "a": "1"}) == "codex (a=1, model=o4)"
    card = fixture_card("tier-1-seed-3")
    assert stage_of(card) == 1
    assert result_of(card) == Result("tier-1", "notetaker", 1, 3, 1.0, 1.0, 1.0, True)


def test_json_has_every_figure_rounded() -> None:
    (summary,) = summary_json(summarize([result(s, 1 / 3) for s in range(3)]))
    assert summary["net_retention"] == {
        "count": 3, "mean": 0.333333, "low": 0.333333, "high": 0.333333,
    }  # fmt: skip
    assert summary["runs"] == 3 and summary["passed"] == 0 and summary["confidence"] == 0.95
    json.dumps(summary)


def test_the_text_table_is_aligned_and_explains_the_interval() -> None:
    text = render_summaries(summarize([result(s, 0.5, agent="x\x1b[2J") for s in range(3)]))
    lines = text.splitlines()
    assert lines[0].split() == ["stage", "tier", "agent", "runs", "raw", "net", "net", "CI",
                                "TES", "TES", "CI", "PASS"]  # fmt: skip
    assert "x\\x1b[2J" in lines[1] and "\x1b" not in text  # escapes are shown, never obeyed
    assert "50.0% – 50.0%" in lines[1]
    assert lines[-1].startswith("CI: 95% percentile bootstrap of the mean over runs")


def test_files_edited_without_resealing_are_refused_and_duplicates_count_once(
    tmp_path: Path,
) -> None:
    paths = []
    for seed in (1, 2):
        path = tmp_path / f"{seed}.json"
        path.write_text(json.dumps(fixture_document("tier-1-seed-3")) if seed == 1 else
                        (tmp_path / "1.json").read_text())  # fmt: skip
        paths.append(path)
    assert len(load_results(paths)) == 1
    edited = json.loads(paths[0].read_text())
    edited["scores"]["net_retention"] = 0.5
    paths[1].write_text(json.dumps(edited))
    with pytest.raises(UsageError, match="does not match its receipt's digest"):
        load_results(paths)


def test_results_of_sealed_scorecards() -> None:
    card = scorecard(seed=9, agent="codex", options={"model": "m"}, net=0.5, tes=None)
    assert result_of(card) == Result("tier-1", "codex (model=m)", 1, 9, 0.5, 0.5, None, False)


def test_stage_two_summaries_carry_retention_without_recovery() -> None:
    first = replace(result(1, 1.0), stage=2, retained_without_recovery=0.25)
    second = replace(result(2, 1.0), stage=2, retained_without_recovery=0.75)
    (summary,) = summarize([first, second])
    assert summary.retained_without_recovery.mean == 0.5
    assert summary_json([summary])[0]["retained_without_recovery"]["mean"] == 0.5
    text = render_summaries([summary])
    assert text.splitlines()[0].split()[4] == "kept" and "50.0%" in text.splitlines()[1]
    assert "kept: Stage II's retention without recovery" in text


def test_handoff_modes_are_never_summarized_together() -> None:
    fresh = [result(1, 1.0), result(2, 0.5)]
    resumed = [
        replace(result(1, 0.25), handoff="resume"),
        replace(result(3, 0.5), handoff="compact"),
    ]
    summaries = summarize([resumed[1], *fresh, resumed[0]])
    assert [(s.handoff, s.runs) for s in summaries] == [("fresh", 2), ("resume", 1), ("compact", 1)]
    assert summaries[0].net_retention.mean == 0.75
    assert [s["handoff"] for s in summary_json(summaries)] == ["fresh", "resume", "compact"]


def test_a_scorecard_from_before_handoff_modes_is_fresh() -> None:
    card = fixture_card("tier-1-seed-3")
    assert card.handoff is None and result_of(card).handoff == "fresh"
    assert result_of(replace(card, handoff="resume")).handoff == "resume"
    assert replace(card, handoff="resume").key == card.key + "/resume"
