"""The mermaid charts of the comment and the job summary (pure)."""

from __future__ import annotations

import re

from specsnap.render.chart import MAX_RUNS, render_charts
from specsnap.scorecard.delta import compare, snapshot_of
from tests.support.scorecards import fixture_card
from tests.unit.render.test_golden import hostile_everywhere

SERIES = re.compile(r"^    (bar|line) \[([^\]]*)\]$", re.M)


def test_one_bar_per_run_and_the_base_as_a_line() -> None:
    now, base = fixture_card("tier-2-seed-7"), fixture_card("tier-2-seed-7-base")
    charts = render_charts([now], {now.key: compare(now, snapshot_of(base))})
    series = SERIES.findall(charts)
    assert series[0] == ("bar", f"{100 * now.scores.net_retention:.1f}")
    assert series[2] == ("line", f"{100 * base.scores.net_retention:.1f}")  # the base
    assert charts.count("```mermaid") == 2


def test_no_base_no_base_line_and_unknown_tokens_draw_no_token_line() -> None:
    card = fixture_card("tier-4-seed-1")
    charts = render_charts([card], {})
    kinds = [kind for kind, _ in SERIES.findall(charts)]
    unknown = any(s.tokens.source == "unknown" for s in card.sessions)
    assert kinds[:2] == ["bar", "line"] and kinds.count("bar") == 1
    assert ("base branch" in charts) is False
    assert (charts.count("```mermaid") == 1) is unknown


def test_hostile_text_never_leaves_the_labels_allowed_characters() -> None:
    card = fixture_card("tier-2-seed-7", hostile_everywhere)
    charts = render_charts([card], {})
    for axis in re.findall(r"x-axis \[(.*)\]", charts):
        for label in re.findall(r'"([^"]*)"', axis):
            assert re.fullmatch(r"[A-Za-z0-9 .,-]*", label), label
    assert "```" not in charts.replace("```mermaid\n", "").replace("\n```", "")


def test_too_many_runs_are_left_to_the_table() -> None:
    card = fixture_card("tier-2-seed-7")
    assert render_charts([card] * (MAX_RUNS + 1), {}) == ""
    assert render_charts([], {}) == ""
