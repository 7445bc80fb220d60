"""scorecard.json through the model: byte-exact round trips, every schema problem at once."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from specsnap.errors import InputError
from specsnap.schemas import load_schema
from specsnap.scorecard.io import (
    dump_scorecard,
    load_scorecard,
    parse_scorecard,
    scorecard_document,
    seal,
    without_timings,
)
from specsnap.scorecard.model import SCHEMA_VERSION, Scorecard, Session
from specsnap.scorecard.receipt import scorecard_digest
from specsnap.scorecard.schema import schema_text
from tests.support.scorecards import FIXTURES, fixture_card, fixture_document

ROOT = Path(__file__).resolve().parents[3]
SCHEMA = ROOT / "specsnap" / "schemas" / "scorecard.schema.json"
GOLDEN_SCORECARDS = sorted(
    [*FIXTURES.glob("*.json"), *(ROOT / "tests" / "fixtures" / "golden").glob("scorecard*.json")]
)


@pytest.mark.parametrize("path", GOLDEN_SCORECARDS, ids=lambda p: p.name)
def test_dump_of_load_gives_the_same_bytes(path: Path) -> None:
    assert dump_scorecard(load_scorecard(path)) == path.read_text(encoding="utf-8")


@pytest.mark.parametrize("path", GOLDEN_SCORECARDS, ids=lambda p: p.name)
def test_golden_scorecards_are_sealed(path: Path) -> None:
    document = json.loads(path.read_text())
    assert document["receipt"]["scorecard_sha256"] == scorecard_digest(document)


def test_the_shipped_schema_is_the_one_the_model_defines() -> None:
    """Regenerate with SPECSNAP_REGENERATE=1 after changing specsnap/scorecard/model.py."""
    if os.environ.get("SPECSNAP_REGENERATE"):
        SCHEMA.write_text(schema_text(), encoding="utf-8")
    assert SCHEMA.read_text(encoding="utf-8") == schema_text()
    assert load_schema("scorecard")["properties"]["schema_version"] == {"const": SCHEMA_VERSION}


def test_the_model_carries_what_every_reader_shows() -> None:
    card = load_scorecard(FIXTURES / "tier-2-seed-7.json")
    assert (card.tier_id, card.seed, card.agent.name, card.key, card.label) == (
        "tier-2",
        7,
        "notetaker",
        "tier-2/seed-7",
        "tier-2, seed 7",
    )
    assert card.scores.raw_retention == 0.75 and card.scores.net_retention == 0.0
    assert [r.id for r in card.lost] == ["SHIP-3", "ORD-2"]
    assert [t.outcome for t in card.requirements[2].failing_tests] == ["failed", "error"]
    first = card.sessions[0]
    assert (first.cutoff.reason, first.cutoff.file, first.exit.status) == (
        "commit-attempt",
        None,
        "cutoff",
    )
    assert card.sessions[1].exit.status == "timeout"


def test_gate_findings_are_listed_in_one_order() -> None:
    gate = fixture_card("tier-2-seed-7").gate
    kinds = [type(f).__name__ for f in gate.findings]
    assert kinds == [
        "BaselineFailure",
        "ProtectedChange",
        "ProtectedChange",
        "WiringViolation",
        "WiringViolation",
    ]


def test_every_problem_of_a_malformed_scorecard_is_reported_at_once() -> None:
    document = fixture_document("tier-1-seed-3")
    del document["gate"]
    document["scores"]["raw_retention"] = 1.5
    document["seed"] = "three"
    document["sessions"][0]["tokens"]["source"] = "guessed"
    document["sessions"][1]["surprise"] = True
    with pytest.raises(InputError) as caught:
        parse_scorecard(document, "bad.json")
    found = {(p.file, p.key) for p in caught.value.problems}
    assert found >= {
        ("bad.json", "seed"),
        ("bad.json", "scores.raw_retention"),
        ("bad.json", "sessions.0.tokens.source"),
        ("bad.json", "sessions.1"),
        ("bad.json", "(top level)"),
    }
    expected = {p.key: p.expected for p in caught.value.problems}
    assert expected["sessions.0.tokens.source"] == "one of metered, reported, unknown"
    assert "surprise" in expected["sessions.1"]
    assert "'gate' is required" in expected["(top level)"]


def test_an_older_schema_version_is_named_as_such() -> None:
    document = fixture_document("tier-1-seed-3")
    document["schema_version"] = 2
    with pytest.raises(InputError) as caught:
        parse_scorecard(document, "old.json")
    (problem,) = caught.value.problems
    assert (problem.key, problem.value, problem.expected) == ("schema_version", "2", "exactly 3")


def test_a_file_that_is_not_json_is_a_usage_error(tmp_path: Path) -> None:
    path = tmp_path / "scorecard.json"
    path.write_text("{not json")
    with pytest.raises(Exception) as caught:
        load_scorecard(path)
    assert caught.value.exit_code == 2  # type: ignore[attr-defined]
    assert str(path) in str(caught.value)


def test_sealing_fills_in_the_digest_of_everything_else() -> None:
    card = fixture_card("tier-1-seed-3")
    document = scorecard_document(card)
    assert seal(card) == card
    assert card.receipt.scorecard_sha256 == scorecard_digest(document)


def test_timings_are_the_keys_ending_in_s_or_ms_and_the_timings_object() -> None:
    document = scorecard_document(fixture_card("tier-1-seed-3"))
    stripped = without_timings(document)
    assert "timings" not in stripped and "scorecard_sha256" not in stripped["receipt"]
    assert "duration_s" not in stripped["sessions"][0]
    assert set(stripped["sessions"][0]["cutoff"]) == {"armed", "fired", "reason", "file", "change"}


def test_a_session_record_gives_its_fields_by_name() -> None:
    record = fixture_document("tier-1-seed-3")["sessions"][0]
    record = {**record, "agent": "notetaker", "containment": {"cgroup": "x"}}  # not shown
    del record["cutoff"]["change"]  # a record from before the field existed
    session = Session.from_record(record)
    assert session.cutoff.change is None and session.cutoff.file == "shipping/rates.py"
    del record["tokens"]
    with pytest.raises(ValueError, match=r"^tokens: got nothing; expected a value$"):
        Session.from_record(record)


def test_the_model_is_frozen() -> None:
    card = fixture_card("tier-1-seed-3")
    with pytest.raises(AttributeError):
        card.official = False  # type: ignore[misc]
    assert isinstance(card, Scorecard)
