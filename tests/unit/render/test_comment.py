from __future__ import annotations

from specsnap.render.comment import (
    RenderContext,
    comment_marker,
    render_comment,
    render_summary,
)
from specsnap.render.limits import COMMENT_MAX, github_length
from specsnap.render.markdown import render_markdown
from specsnap.scorecard.delta import compare, snapshot_of
from tests.support.scorecards import fixture_card, many_violations

CONTEXT = RenderContext(
    run_url="https://ghe.example/o/r/actions/runs/9", commit="f" * 40, base_ref="main"
)


def test_the_marker_comes_first_and_is_invisible() -> None:
    body = render_comment([fixture_card("tier-1-seed-3")], {}, CONTEXT, "default")
    first = body.splitlines()[0]
    assert first == comment_marker("default") == "<!-- specsnap:comment:default -->"


def test_marker_keys_cannot_break_out_of_the_html_comment() -> None:
    assert comment_marker("x --> <script>") == "<!-- specsnap:comment:x-script -->"


def test_scores_and_verdicts_of_every_run_are_tabled() -> None:
    cards = [fixture_card("tier-2-seed-7"), fixture_card("tier-1-seed-3")]
    body = render_comment(cards, {}, CONTEXT, "default")
    assert "**❌ 1 of 2 run(s) passed**" in body
    assert "| tier-2, seed 7 | 0.0% | 75.0% | 0.0% | ❌ broken | ❌ not passed |" in body
    assert "| tier-1, seed 3 | 100.0% | 100.0% | 100.0% | ✅ holds | ✅ passed |" in body
    assert (
        "<summary>❌ tier-2, seed 7: 2 requirement(s) not retained, regression gate broken, "
        "session 2 timed out</summary>" in body
    )
    assert "[workflow run](https://ghe.example/o/r/actions/runs/9)" in body


def test_deltas_against_the_base_branch_are_shown_with_the_base_commit() -> None:
    current, base = fixture_card("tier-2-seed-7"), fixture_card("tier-2-seed-7-base")
    deltas = {current.key: compare(current, snapshot_of(base, "0a1b2c3d4e5f"))}
    body = render_comment([current], deltas, CONTEXT, "default")
    assert "0.0% (▼ 62.5)" in body and "75.0% (▲ 12.5)" in body
    assert "against `main` at `0a1b2c3`" in body
    assert "Newly retained since the base: `SHIP-2`" in body


def test_without_base_scores_the_comment_says_so() -> None:
    body = render_comment([fixture_card("tier-1-seed-3")], {}, CONTEXT, "default")
    assert "No SpecSnap scores of `main` found" in body


def test_gate_findings_are_listed_in_the_details() -> None:
    body = render_comment([fixture_card("tier-2-seed-7")], {}, CONTEXT, "default")
    assert (
        "module boundary: `shipping.rates` imports `orders.ledger` at `shipping/rates.py:42`"
        in body
    )
    assert "protected file `wiring.yaml` deleted" in body
    assert "baseline test `tests/test_orders.py::test_order_total_includes_tax`: failed" in body


def test_each_session_tells_how_it_ended_and_where_the_cutoff_fired() -> None:
    body = render_comment([fixture_card("tier-4-seed-1")], {}, CONTEXT, "default")
    assert (
        "| 1 | cut off | fired after 2 min 00 s on `shipping/rates.py` (created) | unknown |"
        in body
    )
    assert "| 2 | cut off | fired after 30.5 s on a commit attempt (refused by the hook) |" in body
    assert "| 4 | crashed (SIGSEGV) | not armed | unknown | 14.0 s |" in body
    assert "None" not in body
    assert "session 4 crashed</summary>" in body


def test_agent_controlled_names_cannot_inject_markup_or_mention_anyone() -> None:
    def evil(document) -> None:  # type: ignore[no-untyped-def]
        document["gate"]["wiring_violations"][0]["file"] = "a|b`<img src=x onerror=1>@octocat.py"

    body = render_comment([fixture_card("tier-2-seed-7", evil)], {}, CONTEXT, "default")
    line = next(line for line in body.splitlines() if "onerror" in line)
    assert "`` a\\|b`<img src=x onerror=1>@octocat.py:7 ``" in line  # one code span, pipe escaped


def test_an_oversize_comment_is_truncated_visibly_and_stays_well_formed() -> None:
    cards = [fixture_card("tier-2-seed-7", many_violations(400)) for _ in range(30)]
    body = render_comment(cards, {}, CONTEXT, "default")
    assert github_length(body) <= COMMENT_MAX
    assert body.startswith(comment_marker("default"))
    assert "Truncated: details of" in body
    assert body.count("<details>") == body.count("</details>")
    assert body.rstrip().endswith("</sub>")  # the footer survives
    assert body.count("| tier-2, seed 7 |") == 30  # the score table is never cut


def test_long_lists_inside_a_run_are_bounded() -> None:
    body = render_comment([fixture_card("tier-2-seed-7", many_violations(100))], {}, CONTEXT, "k")
    assert "… and 78 more gate findings" in body  # 3 other findings + 100 - 25 shown


def test_the_job_summary_embeds_each_whole_scorecard_and_any_notice() -> None:
    card = fixture_card("tier-1-seed-3")
    context = RenderContext(notice="Not published to GitHub: fork.")
    summary = render_summary([card], {}, context)
    assert render_markdown(card) in summary
    assert "> [!WARNING]\n> Not published to GitHub: fork." in summary
    assert "specsnap:comment" not in summary
