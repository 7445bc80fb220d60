from __future__ import annotations

import json

import pytest

from specsnap.errors import InputError
from specsnap.publish.scorecard import load_scorecard, parse_scorecard
from tests.support.scorecards import FIXTURES, fixture_document


def test_the_view_carries_what_publishing_shows() -> None:
    card = load_scorecard(FIXTURES / "tier-2-seed-7.json")
    assert (card.tier_id, card.seed, card.agent, card.key) == (
        "tier-2",
        7,
        "notetaker",
        "tier-2/seed-7",
    )
    assert card.scores.raw_retention == 0.75 and card.scores.net_retention == 0.0
    assert not card.gate.holds
    assert [v.file for v in card.gate.wiring_violations] == [
        "catalog/products.py",
        "shipping/rates.py",
    ]
    lost = [r.id for r in card.requirements if not r.passed]
    assert lost == ["SHIP-3", "ORD-2"]
    assert [t.outcome for t in card.requirements[2].failing_tests] == ["failed", "error"]


def test_unknown_tokens_leave_tes_unknown() -> None:
    card = load_scorecard(FIXTURES / "tier-4-seed-1.json")
    assert card.scores.tes is None
    assert card.sessions == 4


def test_every_problem_of_a_malformed_scorecard_is_reported_at_once() -> None:
    document = fixture_document("tier-1-seed-3")
    del document["gate"]
    document["scores"]["raw_retention"] = 1.5
    document["seed"] = "three"
    with pytest.raises(InputError) as caught:
        parse_scorecard(document, "bad.json")
    keys = {p.key for p in caught.value.problems}
    assert {"seed", "scores.raw_retention"} <= keys
    assert any("gate" in p.expected or "gate" in p.value for p in caught.value.problems)
    assert all(p.file == "bad.json" for p in caught.value.problems)


def test_a_file_that_is_not_json_is_a_usage_error(tmp_path) -> None:
    path = tmp_path / "scorecard.json"
    path.write_text("{not json")
    with pytest.raises(Exception) as caught:
        load_scorecard(path)
    assert caught.value.exit_code == 2  # type: ignore[attr-defined]
    assert str(path) in str(caught.value)


def test_fixtures_are_sealed_engine_scorecards() -> None:
    from specsnap.receipt import scorecard_digest

    for path in FIXTURES.glob("*.json"):
        document = json.loads(path.read_text())
        assert document["receipt"]["scorecard_sha256"] == scorecard_digest(document), path
