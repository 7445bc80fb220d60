"""Agreement between reviewers over many reviews (pure): Cohen's kappa with quadratic weights.

The rubric's ratings are ordinal (1-5), so a 4 against a 5 is a smaller disagreement than a 1
against a 5: each pair of categories (i, j) weighs (i - j)² / (k - 1)², and
kappa = 1 - Σ w·observed / Σ w·expected, with the expected counts from each reviewer's marginal
distribution. The pairs are the first two reviewers' independent ratings of each question of
each review (a third or agreed rating is a reconciliation, not an independent judgement).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from specsnap.review.rubric import HIGHEST, LOWEST
from specsnap.review.rules import Review

#: Agreement is reported once this many reviews have two independent ratings.
KAPPA_MIN_REVIEWS = 10


def quadratic_kappa(
    pairs: Sequence[tuple[int, int]], lowest: int = LOWEST, highest: int = HIGHEST
) -> float | None:
    """Quadratic-weighted Cohen's kappa of `pairs` (rater A's, rater B's category); None when
    it is undefined (no pairs, or both raters used one and the same category only)."""
    if not pairs:
        return None
    k = highest - lowest + 1
    n = len(pairs)
    observed = [[0.0] * k for _ in range(k)]
    for a, b in pairs:
        observed[a - lowest][b - lowest] += 1
    rows = [sum(row) for row in observed]
    cols = [sum(observed[i][j] for i in range(k)) for j in range(k)]
    weighted_observed = weighted_expected = 0.0
    for i in range(k):
        for j in range(k):
            weight = (i - j) ** 2 / (k - 1) ** 2
            weighted_observed += weight * observed[i][j]
            weighted_expected += weight * rows[i] * cols[j] / n
    if weighted_expected == 0:
        return None
    return 1 - weighted_observed / weighted_expected


def reviewers_agreement(reviews: Iterable[Review]) -> tuple[float | None, int]:
    """(kappa, how many reviews it is over); kappa None below KAPPA_MIN_REVIEWS reviews."""
    pairs: list[tuple[int, int]] = []
    counted = 0
    for review in reviews:
        found = review.first_pair()
        if found:
            counted += 1
            pairs += found
    if counted < KAPPA_MIN_REVIEWS:
        return None, counted
    return quadratic_kappa(pairs), counted
