"""The review's rules (pure): who may rate what, when ratings are shown, and how two ratings
become one.

- The first two reviewers rate every question of the rubric independently; a reviewer rates once
  (ratings are final: a later change would defeat the independence).
- Each reviewer's ratings are hidden until a second reviewer has rated (`Review.revealed`).
- Two ratings at most one point apart are reconciled as their mean. Two ratings more than one
  point apart (`MAX_GAP`) need a reconciliation, one of:
  a third reviewer's rating of that question (the reconciled rating is the median of the three),
  or an agreed rating given by one of the two reviewers (both original reasons are kept beside
  the agreed one's).
- The review's result: per question the reconciled rating and how it was reached.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from statistics import median
from typing import Literal

from specsnap.errors import UsageError
from specsnap.review.rubric import HIGHEST, KEYS, LOWEST, REASON_MAX

#: Two ratings further apart than this need a reconciliation.
MAX_GAP = 1

Kind = Literal["rating", "agreed"]
Status = Literal["pending", "needs-reconciliation", "reconciled"]


class RuleError(UsageError):
    """A submission the rules refuse; the message says why and what is allowed instead."""


@dataclass(frozen=True)
class Score:
    score: int
    reason: str


@dataclass(frozen=True)
class Submission:
    """What one reviewer gave at once: an independent `rating`, or an `agreed` rating."""

    reviewer: str
    kind: Kind
    scores: Mapping[str, Score]


@dataclass(frozen=True)
class QuestionResult:
    key: str
    ratings: tuple[tuple[str, Score], ...]  # the independent ratings, in the order given
    agreed: tuple[str, Score] | None
    status: Status
    rating: float | None  # the reconciled rating; None until there is one
    method: str | None  # how it was reached

    @property
    def reasons(self) -> tuple[str, ...]:
        """Every reason given on this question, the reviewers' and the agreed one's."""
        kept = [f"{who}: {s.reason}" for who, s in self.ratings]
        if self.agreed is not None:
            kept.append(f"{self.agreed[0]} (agreed): {self.agreed[1].reason}")
        return tuple(kept)


@dataclass(frozen=True)
class Review:
    submissions: tuple[Submission, ...] = ()

    @property
    def raters(self) -> tuple[str, ...]:
        """The reviewers who gave an independent rating, in order."""
        return tuple(dict.fromkeys(s.reviewer for s in self.submissions if s.kind == "rating"))

    @property
    def revealed(self) -> bool:
        """Whether ratings may be shown: a second reviewer has rated."""
        return len(self.raters) >= 2

    @property
    def questions(self) -> tuple[QuestionResult, ...]:
        return tuple(_question(key, self.submissions) for key in KEYS)

    @property
    def disputed(self) -> tuple[str, ...]:
        """The questions that still need a reconciliation."""
        return tuple(q.key for q in self.questions if q.status == "needs-reconciliation")

    @property
    def complete(self) -> bool:
        return all(q.status == "reconciled" for q in self.questions)

    @property
    def reconciled_mean(self) -> float | None:
        """The mean of the reconciled ratings, once every question has one."""
        if not self.complete:
            return None
        return sum(q.rating or 0.0 for q in self.questions) / len(KEYS)

    def first_pair(self) -> list[tuple[int, int]]:
        """The first two reviewers' independent ratings, question by question (for agreement)."""
        if not self.revealed:
            return []
        found = []
        for q in self.questions:
            if len(q.ratings) >= 2:
                found.append((q.ratings[0][1].score, q.ratings[1][1].score))
        return found


def admit(review: Review, submission: Submission) -> Review:
    """`review` with `submission` added, or RuleError saying why the rules refuse it."""
    _check_scores(submission)
    who = submission.reviewer
    if submission.kind == "rating":
        if who in review.raters:
            raise RuleError(
                f"{who} has rated already and ratings are final; when a reconciliation is asked, "
                "give an agreed rating instead"
            )
        if len(review.raters) < 2:
            missing = [k for k in KEYS if k not in submission.scores]
            if missing:
                raise RuleError(
                    f"a review rates every question: {', '.join(missing)} missing "
                    f"(give {', '.join(KEYS)})"
                )
        else:
            _only_disputed(review, submission, "a third reviewer")
    else:
        if who not in review.raters[:2]:
            raise RuleError(
                f"an agreed rating is given by one of the two reviewers "
                f"({', '.join(review.raters[:2]) or 'none yet'}); {who} is not one"
            )
        if not review.revealed:
            raise RuleError("an agreed rating comes after both reviewers have rated")
        _only_disputed(review, submission, "an agreed rating")
    return Review((*review.submissions, submission))


def review_of(submissions: Iterable[Submission]) -> Review:
    """The review the submissions make, each admitted in turn (RuleError at the first refused)."""
    review = Review()
    for submission in submissions:
        review = admit(review, submission)
    return review


def _check_scores(submission: Submission) -> None:
    if not submission.scores:
        raise RuleError("a rating needs at least one question rated")
    for key, given in submission.scores.items():
        if key not in KEYS:
            raise RuleError(f"{key} is not a question of the rubric (known: {', '.join(KEYS)})")
        if not isinstance(given.score, int) or not LOWEST <= given.score <= HIGHEST:
            raise RuleError(f"{key}: the rating is a whole number from {LOWEST} to {HIGHEST}")
        reason = given.reason.strip()
        if not reason or "\n" in reason or len(reason) > REASON_MAX:
            raise RuleError(f"{key}: a reason is required, one line of at most {REASON_MAX}")


def _only_disputed(review: Review, submission: Submission, what: str) -> None:
    disputed = review.disputed
    extra = [k for k in submission.scores if k not in disputed]
    if extra:
        open_ = ", ".join(disputed) if disputed else "none"
        raise RuleError(
            f"{what} is given only on questions that need a reconciliation ({open_}); "
            f"{', '.join(extra)} do not"
        )


def _question(key: str, submissions: tuple[Submission, ...]) -> QuestionResult:
    ratings: list[tuple[str, Score]] = []
    agreed: tuple[str, Score] | None = None
    for s in submissions:
        if key not in s.scores:
            continue
        if s.kind == "rating":
            ratings.append((s.reviewer, s.scores[key]))
        elif agreed is None:
            agreed = (s.reviewer, s.scores[key])
    if len(ratings) < 2:
        return QuestionResult(key, tuple(ratings), agreed, "pending", None, None)
    a, b = ratings[0][1], ratings[1][1]
    if abs(a.score - b.score) <= MAX_GAP:
        return QuestionResult(
            key, tuple(ratings), agreed, "reconciled", (a.score + b.score) / 2, "mean of two"
        )
    # More than MAX_GAP apart: the first reconciliation given settles it.
    agreed_at = _position(key, submissions, "agreed", 1)
    third_at = _position(key, submissions, "rating", 3)
    if agreed is not None and agreed_at is not None and (third_at is None or agreed_at < third_at):
        method = f"agreed by {agreed[0]}"
        return QuestionResult(
            key, tuple(ratings[:2]), agreed, "reconciled", float(agreed[1].score), method
        )
    if third_at is not None:
        three = tuple(ratings[:3])
        rating = float(median(r.score for _, r in three))
        return QuestionResult(key, three, None, "reconciled", rating, "median of three")
    return QuestionResult(key, tuple(ratings), agreed, "needs-reconciliation", None, None)


def _position(key: str, submissions: tuple[Submission, ...], kind: Kind, nth: int) -> int | None:
    """Where the `nth` submission of `kind` rating `key` is; None when there are fewer."""
    seen = 0
    for i, s in enumerate(submissions):
        if s.kind == kind and key in s.scores:
            seen += 1
            if seen == nth:
                return i
    return None
