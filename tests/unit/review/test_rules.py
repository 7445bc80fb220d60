"""The review's rules: who may rate what, hidden until two have rated, reconciliation."""

from __future__ import annotations

import pytest

from specsnap.review.rubric import KEYS
from specsnap.review.rules import MAX_GAP, Review, RuleError, Score, Submission, admit, review_of


def rating(who: str, *scores: int, kind: str = "rating") -> Submission:
    return Submission(
        who, kind, {k: Score(s, f"{who} on {k}") for k, s in zip(KEYS, scores, strict=True)}
    )  # type: ignore[arg-type]


def only(who: str, kind: str, **scores: int) -> Submission:
    return Submission(who, kind, {k: Score(s, f"{who} says {s}") for k, s in scores.items()})  # type: ignore[arg-type]


def test_ratings_are_hidden_until_a_second_reviewer_has_rated() -> None:
    one = review_of([rating("alice", 4, 4, 4, 4, 4)])
    assert not one.revealed and one.raters == ("alice",)
    assert all(q.status == "pending" and q.rating is None for q in one.questions)
    assert one.first_pair() == []
    two = admit(one, rating("bob", 5, 4, 3, 4, 4))
    assert two.revealed and two.complete


def test_within_one_point_is_the_mean_more_than_one_needs_a_reconciliation() -> None:
    assert MAX_GAP == 1
    review = review_of([rating("alice", 4, 4, 4, 1, 5), rating("bob", 5, 4, 3, 3, 2)])
    by_key = {q.key: q for q in review.questions}
    assert (by_key["q1"].rating, by_key["q1"].method) == (4.5, "mean of two")
    assert by_key["q3"].rating == 3.5
    assert review.disputed == ("q4", "q5")  # 2 and 3 points apart
    assert not review.complete and review.reconciled_mean is None


def test_an_agreed_rating_reconciles_and_keeps_both_reasons() -> None:
    review = review_of(
        [rating("alice", 4, 4, 4, 1, 4), rating("bob", 4, 4, 4, 4, 4), only("bob", "agreed", q4=3)]
    )
    q4 = review.questions[3]
    assert (q4.status, q4.rating, q4.method) == ("reconciled", 3.0, "agreed by bob")
    assert q4.reasons == ("alice: alice on q4", "bob: bob on q4", "bob (agreed): bob says 3")
    assert review.complete and review.reconciled_mean == pytest.approx((4 * 4 + 3) / 5)


def test_a_third_rating_reconciles_as_the_median_of_three() -> None:
    review = review_of(
        [
            rating("alice", 4, 4, 4, 1, 4),
            rating("bob", 4, 4, 4, 5, 4),
            only("carol", "rating", q4=2),
        ]
    )
    q4 = review.questions[3]
    assert (q4.rating, q4.method) == (2.0, "median of three")
    assert [who for who, _ in q4.ratings] == ["alice", "bob", "carol"]


def test_the_first_reconciliation_settles_a_question() -> None:
    settled = review_of(
        [rating("a", 3, 3, 3, 1, 3), rating("b", 3, 3, 3, 5, 3), only("a", "agreed", q4=4)]
    )
    with pytest.raises(RuleError, match="only on questions that need a reconciliation"):
        admit(settled, only("c", "rating", q4=1))
    with pytest.raises(RuleError, match="only on questions that need a reconciliation"):
        admit(settled, only("b", "agreed", q4=2))


@pytest.mark.parametrize(
    ("earlier", "submission", "why"),
    [
        ([], only("alice", "rating", q1=4), "rates every question: q2, q3, q4, q5 missing"),
        ([rating("a", 3, 3, 3, 3, 3)], rating("a", 4, 4, 4, 4, 4), "ratings are final"),
        ([rating("a", 3, 3, 3, 3, 3)], only("a", "agreed", q1=3), "after both reviewers"),
        (
            [rating("a", 3, 3, 3, 1, 3), rating("b", 3, 3, 3, 5, 3)],
            only("c", "agreed", q4=3),
            "c is not one",
        ),
        (
            [rating("a", 3, 3, 3, 1, 3), rating("b", 3, 3, 3, 5, 3)],
            only("c", "rating", q1=3),
            r"need a reconciliation \(q4\); q1 do not",
        ),
        ([], Submission("a", "rating", {"q9": Score(3, "x")}), "not a question"),
        ([], rating("a", 6, 3, 3, 3, 3), "whole number from 1 to 5"),
        ([], Submission("a", "rating", {k: Score(3, " ") for k in KEYS}), "reason is required"),
    ],
)
def test_what_the_rules_refuse(earlier: list[Submission], submission: Submission, why: str) -> None:
    review = review_of(earlier)
    with pytest.raises(RuleError, match=why):
        admit(review, submission)
    assert review == review_of(earlier)  # nothing was added


def test_an_empty_review_is_pending() -> None:
    assert Review().raters == () and not Review().revealed and Review().disputed == ()
