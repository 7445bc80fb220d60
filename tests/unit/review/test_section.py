"""The reviews section: a chain bound to one scorecard; altered, reordered or foreign entries
are found; files are read with errors naming the key."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from specsnap.errors import UsageError
from specsnap.review.rubric import KEYS
from specsnap.review.rules import RuleError, Score, Submission
from specsnap.review.section import (
    Section,
    SectionError,
    append,
    check_section,
    entry_digest,
    load_section,
    write_section,
)
from specsnap.review.signing import app_signer, app_verifier
from tests.support.app_keys import app_key_pair

CARD, OTHER = "a" * 64, "b" * 64


def rating(who: str, score: int, kind: str = "rating", keys: tuple[str, ...] = KEYS) -> Submission:
    return Submission(who, kind, {k: Score(score, f"{who}'s reason") for k in keys})  # type: ignore[arg-type]


def comment(n: int, who: str) -> dict:
    return {
        "via": "github",
        "repository": "o/r",
        "pull_request": 1,
        "comment_id": n,
        "author": who,
        "at": None,
    }


def reviewed() -> Section:
    section = append(Section(CARD, ()), rating("alice", 2), comment(11, "alice"))
    section = append(section, rating("bob", 5), comment(12, "bob"))
    return append(section, rating("bob", 4, "agreed", KEYS), comment(13, "bob"))


def test_an_intact_chain_is_bound_to_its_scorecard() -> None:
    section = reviewed()
    assert section.entries[0]["previous"] == CARD
    assert [e["previous"] for e in section.entries[1:]] == [
        e["digest"] for e in section.entries[:-1]
    ]
    assert check_section(section, CARD) == []
    assert section.review.complete and section.review.reconciled_mean == 4.0


def test_a_section_of_another_scorecard_is_refused() -> None:
    (problem,) = check_section(reviewed(), OTHER)
    assert "they review another run" in problem and OTHER in problem


def test_an_altered_rating_is_found_and_named() -> None:
    section = reviewed()
    entries = [copy.deepcopy(dict(e)) for e in section.entries]
    entries[1]["scores"]["q3"]["score"] = 3
    problems = check_section(Section(CARD, tuple(entries)), CARD)
    assert problems[0].startswith("entry 1 (bob, rating)")
    assert "the entry was altered" in problems[0]


def test_a_removed_entry_breaks_the_chain() -> None:
    entries = reviewed().entries
    problems = check_section(Section(CARD, (entries[0], entries[2])), CARD)
    assert any("index 2, expected 1" in p for p in problems)
    assert any("does not follow the entry before it" in p for p in problems)


def test_the_rules_are_applied_when_appending() -> None:
    with pytest.raises(RuleError):
        append(reviewed(), rating("carol", 3), comment(14, "carol"))


def test_written_and_read_back(tmp_path: Path) -> None:
    path = write_section(tmp_path, reviewed())
    assert load_section(path) == reviewed()
    document = json.loads(path.read_text())
    document["entries"][0]["scores"]["q1"]["score"] = "four"
    path.write_text(json.dumps(document))
    with pytest.raises(SectionError, match=r"reviews.json: entries/0/scores/q1/score: 'four'"):
        load_section(path)
    document = json.loads(write_section(tmp_path, reviewed()).read_text())
    document["head"] = CARD
    path.write_text(json.dumps(document))
    with pytest.raises(SectionError, match=r"head: .* is not the last entry's digest"):
        load_section(path)


def test_the_bots_signature_binds_each_entry_it_recorded() -> None:
    private, public = app_key_pair()
    sign, verify = app_signer(private, 4242), app_verifier(public)
    section = append(Section(CARD, ()), rating("alice", 2), comment(11, "alice"), sign)
    section = append(section, rating("bob", 3), {"via": "local", "file_sha256": "c" * 64})
    assert check_section(section, CARD, verify) == []  # a local rating carries none
    assert "signed" not in section.entries[1]

    entries = [dict(e) for e in section.entries]
    entries[0]["scores"] = {**entries[0]["scores"], "q1": {"score": 3, "reason": "x"}}
    entries[0]["digest"] = entry_digest(entries[0])  # a forger keeps the chain whole...
    entries[1]["previous"] = entries[0]["digest"]
    entries[1]["digest"] = entry_digest(entries[1])
    forged = Section(CARD, tuple(entries))
    assert check_section(forged, CARD) == []  # ...which the chain alone cannot tell
    assert check_section(forged, CARD, verify) == [
        "entry 0 (alice, rating): its signature is over another entry"
    ]
    _, stranger = app_key_pair()
    assert check_section(section, CARD, app_verifier(stranger))[0].startswith(
        "entry 0 (alice, rating): its signature does not verify with the key given"
    )
    unsigned = append(Section(CARD, ()), rating("alice", 2), comment(11, "alice"))
    assert check_section(unsigned, CARD, verify) == ["entry 0 (alice, rating): it is not signed"]
    with pytest.raises(UsageError, match="not a PEM public key"):
        app_verifier(private)  # the private half, or any other text, is refused at once
