"""Ratings as written: the comment's words and the local ratings file."""

from __future__ import annotations

from pathlib import Path

import pytest

from specsnap.review.ratings import RatingsError, load_ratings_file, parse_words
from specsnap.review.rules import Score


def test_words_with_quoted_reasons() -> None:
    kind, scores = parse_words('q1=4 "no  copy" Q2 = 5 "only what was asked"')
    assert kind == "rating"
    assert scores == {"q1": Score(4, "no  copy"), "q2": Score(5, "only what was asked")}
    assert parse_words('agreed q4=3 "we agree"') == ("agreed", {"q4": Score(3, "we agree")})


@pytest.mark.parametrize(
    ("words", "why"),
    [
        ("q1=4 fine", "cannot read `q1=4 fine`"),
        ('q1=0 "x"', "`q1=0` is not a rating from 1 to 5"),
        ('q7=3 "x"', "`q7` is not a question"),
        ('q1=3 "x" q1=4 "y"', "q1 is rated twice"),
        ('q1=3 "  "', "q1 needs a reason"),
        ('q1=3 "' + "x" * 301 + '"', "longer than 300"),
        ('q1=3 "@someone <b>"', None),
    ],
)
def test_malformed_words_are_named(words: str, why: str | None) -> None:
    if why is None:
        assert parse_words(words)[1]["q1"].reason == "@someone <b>"  # shown inertly by replies
        return
    with pytest.raises(RatingsError, match=why.replace("(", r"\(")):
        parse_words(words)


def test_a_ratings_file(tmp_path: Path) -> None:
    good = tmp_path / "good.yaml"
    good.write_text("kind: agreed\nratings:\n  q4: {score: 3, reason: settled on 3}\n")
    assert load_ratings_file(good) == ("agreed", {"q4": Score(3, "settled on 3")})
    bad = tmp_path / "bad.yaml"
    bad.write_text("ratings:\n  q1: {score: 9, reason: x}\n  q2: {score: 3}\n  extra: 1\n")
    with pytest.raises(RatingsError) as raised:
        load_ratings_file(bad)
    message = str(raised.value)
    assert (
        "bad.yaml" in message and "ratings.q1.score: 9 is greater than the maximum of 5" in message
    )
    assert "ratings.q2: 'reason' is a required property" in message and "'extra'" in message
