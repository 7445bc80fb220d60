"""The leaderboard's work and review columns, the reviewers' agreement and the tokens plot,
from the runs' scorecards and reviews matched to ledger entries by digest."""

from __future__ import annotations

import json
import os
from pathlib import Path

from specsnap.leaderboard.page import render_page
from specsnap.leaderboard.plot import tokens_plot
from specsnap.leaderboard.signals import RunSignals, run_signals
from specsnap.leaderboard.site import build_site
from specsnap.ledger.chain import Ledger, Outcome, judge
from specsnap.ledger.store import append_candidate
from specsnap.review.agreement import KAPPA_MIN_REVIEWS
from specsnap.review.rubric import KEYS
from specsnap.review.rules import Score, Submission
from specsnap.review.section import Section, append, write_section
from specsnap.scorecard.io import scorecard_document
from specsnap.scorecard.model import Scorecard
from specsnap.scorecard.receipt import scorecard_digest
from specsnap.submission.verification import candidate_of
from tests.support.ledgers import BUNDLE_SHA256, CHECKS
from tests.support.scorecards import fixture_card, with_work

GOLDEN = Path(__file__).resolve().parents[2] / "fixtures" / "golden"
HOSTILE = '<img src=x onerror="alert(1)">'
LOCAL = {"via": "local", "file_sha256": "e" * 64}


def card(seed: int, agent: str = "notetaker", work: bool = True) -> Scorecard:
    def edit(document: dict) -> None:
        document.update(seed=seed)
        document["receipt"].update(seed=seed)
        document["agent"] = {"name": agent, "options": {}}
        # below Stage II's unlock, so that every card joins the ledger in Stage I
        document["scores"].update(net_retention=0.5, raw_retention=0.5, tes=0.5, **{"pass": False})
        if work:
            with_work(document)

    return fixture_card("tier-1-seed-3", edit)


def digest(c: Scorecard) -> str:
    return scorecard_digest(scorecard_document(c))


def ledger_of(*cards: Scorecard) -> Ledger:
    ledger = Ledger()
    for c in cards:
        judgement = judge(
            ledger, candidate_of(c, CHECKS, None, BUNDLE_SHA256), "2025-01-01T00:00:00Z"
        )
        assert judgement.outcome is Outcome.APPENDED and judgement.entry is not None
        ledger = ledger.extended(judgement.entry)
    return ledger


def reviewed(c: Scorecard, a: int, b: int) -> Section:
    section = Section(digest(c), ())
    for who, score in (("alice", a), ("bob", b)):
        scores = {k: Score(score, "because") for k in KEYS}
        section = append(section, Submission(who, "rating", scores), LOCAL)
    return section


def test_work_and_review_columns_with_how_many_runs_they_cover() -> None:
    first, second = card(1), card(2)
    signals = {
        digest(first): run_signals(first, reviewed(first, 4, 5), digest(first)),
        digest(second): run_signals(second, None, digest(second)),
    }
    one = signals[digest(first)]
    assert one.turns == 23 and one.risky_moves == first.work.risky_moves_total  # type: ignore[union-attr]
    page = render_page(ledger_of(first, second), signals)
    assert "<th>Turns</th><th>Risky moves</th><th>Review</th>" in page
    assert '<td class="turns">23</td>' in page
    assert f'<td class="risky">{one.risky_moves:.1f}</td>' in page
    assert '<td class="review">4.50 (1 of 2)</td>' in page
    assert "1 so far" in page and f"shown from {KAPPA_MIN_REVIEWS} reviews" in page
    assert 'class="tokens-plot"' in page


def test_without_signals_the_page_is_as_before() -> None:
    page = render_page(ledger_of(card(1)))
    assert "Turns" not in page and "tokens-plot" not in page and 'id="agreement"' not in page


def test_a_section_naming_another_scorecard_gives_no_review() -> None:
    first, second = card(1), card(2)
    assert run_signals(first, reviewed(second, 4, 4), digest(first)).review is None
    unrated = card(3, work=False)
    plain = run_signals(unrated, None, digest(unrated))
    assert (plain.turns, plain.risky_moves) == (None, None)


def test_agreement_is_shown_from_the_threshold_on() -> None:
    cards = [card(n) for n in range(KAPPA_MIN_REVIEWS)]
    pairs = [(1 + n % 5, 1 + (n + n % 2) % 5) for n in range(KAPPA_MIN_REVIEWS)]
    signals = {
        digest(c): run_signals(c, reviewed(c, a, b), digest(c))
        for c, (a, b) in zip(cards, pairs, strict=True)
    }
    page = render_page(ledger_of(*cards), signals)
    assert f"over {KAPPA_MIN_REVIEWS} reviews" in page and "so far" not in page
    fewer = dict(list(signals.items())[:-1])
    assert f"{KAPPA_MIN_REVIEWS - 1} so far" in render_page(ledger_of(*cards), fewer)


def test_the_tokens_plot_matches_its_golden_file_and_escapes_names() -> None:
    svg = tokens_plot(
        "tier-1, Stage I: mean effective tokens per session",
        [("notetaker", [120_000.0, 45_500.0, None]), (HOSTILE, [None, 8000.0, 9000.0])],
    )
    assert HOSTILE not in svg and "&lt;img src=x" in svg
    assert svg.count("<polyline") == 2 and svg.count("<circle") == 4
    path = GOLDEN / "tokens-plot.svg"
    if os.environ.get("SPECSNAP_REGENERATE"):
        path.write_text(svg + "\n", encoding="utf-8")
    assert svg + "\n" == path.read_text(encoding="utf-8")


def test_the_site_reads_signals_beside_the_ledger(tmp_path: Path) -> None:
    cards = [card(n) for n in range(3)]
    ledger = tmp_path / "ledger.jsonl"
    for c in cards:
        append_candidate(ledger, candidate_of(c, CHECKS, None, BUNDLE_SHA256))
    runs = tmp_path / "runs"
    for n, c in enumerate([*cards, card(9)]):  # seed 9 is in no entry
        run = runs / f"run-{n}"
        run.mkdir(parents=True)
        (run / "scorecard.json").write_text(json.dumps(scorecard_document(c)))
    write_section(runs / "run-0", reviewed(cards[0], 3, 3))
    tampered = reviewed(cards[1], 5, 5).document()
    tampered["entries"][0]["scores"]["q1"]["score"] = 1
    (runs / "run-1" / "reviews.json").write_text(json.dumps(tampered))
    index = build_site(ledger, tmp_path / "site", runs)
    data = json.loads((tmp_path / "site" / "leaderboard.json").read_text())
    assert data["reviewers_agreement"] == {
        "kappa": None,
        "weights": "quadratic",
        "reviews": 1,  # the tampered one is left out
        "shown_from": KAPPA_MIN_REVIEWS,
    }
    assert '<td class="review">3.00 (1 of 3)</td>' in index.read_text()


def test_signals_of_unknown_tokens_are_left_out_of_the_plot() -> None:
    assert RunSignals(None, None, (None, None)).session_tokens == (None, None)
