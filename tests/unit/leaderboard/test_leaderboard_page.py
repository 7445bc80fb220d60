"""The leaderboard page and its plot, as text: self-contained, escaped, reproducible."""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

from specsnap.leaderboard.page import render_page
from specsnap.leaderboard.plot import tier_plot, x_of
from specsnap.leaderboard.site import build_site
from specsnap.ledger.chain import Ledger, Outcome, judge
from specsnap.ledger.entry import Candidate
from tests.support.ledgers import candidate

HOSTILE = '<img src=x onerror="alert(1)"> & <script>alert(2)</script>'


def ledger_of(*candidates: Candidate) -> Ledger:
    ledger = Ledger()
    for c in candidates:
        judgement = judge(ledger, c, "2025-01-01T00:00:00Z")
        assert judgement.outcome is Outcome.APPENDED and judgement.entry is not None
        ledger = ledger.extended(judgement.entry)
    return ledger


def sample() -> Ledger:
    return ledger_of(
        *(candidate(seed=s, agent=HOSTILE, net=0.5, tes=0.5) for s in range(3)),
        candidate(seed=0, agent="notetaker", net=1.0, tes=0.6),
    )


def test_the_page_is_self_contained_with_no_script_and_a_strict_policy() -> None:
    page = render_page(sample())
    assert "<script" not in page and "<img" not in page
    assert "default-src 'none'" in page
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", page)
    assert 'href="ledger.jsonl"' in page


def test_outside_text_is_escaped_everywhere_it_is_shown() -> None:
    page = render_page(sample())
    escaped = "&lt;img src=x onerror=&quot;alert(1)&quot;&gt; &amp; &lt;script&gt;"
    assert page.count(escaped) >= 5  # table row, data attribute, plot label, titles, entries
    assert HOSTILE not in page


def test_the_same_ledger_gives_the_same_page() -> None:
    assert render_page(sample()) == render_page(sample())


def test_the_curriculum_line_says_locked_or_who_unlocked_it() -> None:
    assert "Stage II (adversarial state perturbation) is <strong>locked</strong>" in render_page(
        sample()
    )
    unlocked = ledger_of(candidate(seed=0, net=0.5, tes=0.5), candidate(seed=1))
    page = render_page(unlocked)
    assert "is <strong>unlocked</strong>, by entry #1: tier-1, seed 1, notetaker" in page


def test_an_empty_ledger_says_so() -> None:
    page = render_page(Ledger())
    assert '<p id="empty">No verified scorecard yet.</p>' in page


def test_rows_rank_by_mean_net_retention() -> None:
    page = render_page(sample())
    rows = re.findall(r'<tr data-agent="([^"]*)"><td class="rank">(\d)</td>', page)
    assert [rank for _, rank in rows] == ["1", "2"]
    assert rows[0][0] == "notetaker"


def test_stage_two_ranks_by_retention_without_recovery_then_net() -> None:
    """A read-every-ticket agent recovers everything (net 100%) and keeps little; the agent
    that kept its notes ranks first on fewer net points."""
    unlock = candidate(seed=9, agent="unlocker")
    reader = [
        dataclasses.replace(candidate(seed=s, agent="reader", net=1.0), stage=2,
                            retained_without_recovery=0.1)
        for s in range(3)
    ]  # fmt: skip
    keeper = [
        dataclasses.replace(candidate(seed=s, agent="keeper", net=0.8), stage=2,
                            retained_without_recovery=0.8)
        for s in range(3)
    ]  # fmt: skip
    page = render_page(ledger_of(unlock, *reader, *keeper))
    stage_two = page[page.index('<section id="stage-2">') :]
    rows = re.findall(r'<tr data-agent="([^"]*)"><td class="rank">(\d)</td>', stage_two)
    assert rows == [("keeper", "1"), ("reader", "2")]
    assert "<th>Retained without recovery</th>" in stage_two
    assert '<td class="kept">80.0%</td>' in stage_two
    assert "100.0% (kept 10.0%)" in page  # the ledger's own table


def test_the_plot_places_runs_means_and_intervals_on_the_axis() -> None:
    from specsnap.scorecard.aggregate import Result, summarize

    results = [Result("tier-1", "a", 1, s, v, v, None, False) for s, v in enumerate([0, 0.5, 1])]
    (summary,) = summarize(results)
    svg = tier_plot("t", [summary], {"a": results})
    assert svg.count('<circle class="run"') == 3
    assert f'cx="{x_of(0.0)}"' in svg and f'cx="{x_of(1.0)}"' in svg
    assert svg.count('<path class="mean"') == 1 and svg.count('<line class="ci"') == 1
    assert x_of(-1) == x_of(0) and x_of(2) == x_of(1)


def test_the_site_holds_the_page_the_summaries_and_the_ledger(tmp_path: Path) -> None:
    from specsnap.ledger.store import append_candidate

    path = tmp_path / "ledger.jsonl"
    for s in range(3):
        append_candidate(path, candidate(seed=s, net=0.5, tes=0.5))
    index = build_site(path, tmp_path / "site")
    assert index.read_text().startswith("<!DOCTYPE html>")
    data = json.loads((tmp_path / "site" / "leaderboard.json").read_text())
    assert data["entries"] == 3 and data["stage_required"] == 1 and data["unlocked_by"] is None
    assert data["summaries"][0]["net_retention"]["mean"] == 0.5
    assert (tmp_path / "site" / "ledger.jsonl").read_bytes() == path.read_bytes()


def test_each_handoff_mode_has_its_own_table() -> None:
    resumed = dataclasses.replace(candidate(seed=1, agent="notetaker", net=0.25), handoff="resume")
    fresh = candidate(seed=0, agent="notetaker", net=1.0, tes=0.5)  # unlocks nothing
    page = render_page(ledger_of(fresh, resumed))
    assert page.count('<table class="results"') == 2
    assert 'id="stage-1-tier-1"' in page and 'id="stage-1-tier-1-resume"' in page
    fresh_table, resume_table = (t.split("</table>")[0] for t in page.split("<table")[1:3])
    assert 'class="raw">100.0%' in fresh_table and 'class="raw">25.0%' not in fresh_table
    assert 'class="raw">25.0%' in resume_table and 'class="raw">100.0%' not in resume_table
