"""Cohen's kappa with quadratic weights, on values computed by hand."""

from __future__ import annotations

import pytest

from specsnap.review.agreement import KAPPA_MIN_REVIEWS, quadratic_kappa, reviewers_agreement
from specsnap.review.rubric import KEYS
from specsnap.review.rules import Score, Submission, review_of


def test_known_values() -> None:
    # Two adjacent swaps among five distinct pairs: observed weighted disagreement 2·(1/16);
    # expected, from uniform marginals, Σ(i-j)²/16 · 1/5 = 100/16/5: kappa = 1 - 0.125/1.25.
    assert quadratic_kappa([(1, 1), (2, 2), (3, 3), (4, 5), (5, 4)]) == pytest.approx(0.9)
    assert quadratic_kappa([(1, 1), (5, 5)]) == pytest.approx(1.0)
    assert quadratic_kappa([(1, 5), (5, 1)]) == pytest.approx(-1.0)
    # Observed 2·(1/16) = 0.125. Marginals: rater A (2,0,0,0,2), rater B (1,1,0,1,1), n = 4;
    # expected Σ w·a·b/n = 2·(1+9+16)/16 · 2 / 4 = 104/64 = 1.625: kappa = 1 - 0.125/1.625.
    pairs = [(1, 1), (1, 2), (5, 4), (5, 5)]
    assert quadratic_kappa(pairs) == pytest.approx(1 - 0.125 / 1.625)


def test_undefined_when_nothing_varies() -> None:
    assert quadratic_kappa([]) is None
    assert quadratic_kappa([(3, 3), (3, 3)]) is None


def test_reported_only_from_the_threshold_on() -> None:
    def review(a: int, b: int) -> object:
        return review_of(
            [
                Submission("a", "rating", {k: Score(a, "r") for k in KEYS}),
                Submission("b", "rating", {k: Score(b, "r") for k in KEYS}),
            ]
        )

    few = [review(1 + n % 5, 1 + n % 5) for n in range(KAPPA_MIN_REVIEWS - 1)]
    assert reviewers_agreement(few) == (None, KAPPA_MIN_REVIEWS - 1)  # type: ignore[arg-type]
    enough = [*few, review(5, 5)]
    kappa, counted = reviewers_agreement(enough)  # type: ignore[arg-type]
    assert counted == KAPPA_MIN_REVIEWS and kappa == pytest.approx(1.0)
    one_reviewer = review_of([Submission("a", "rating", {k: Score(3, "r") for k in KEYS})])
    assert reviewers_agreement([*enough, one_reviewer])[1] == KAPPA_MIN_REVIEWS  # type: ignore[list-item]
