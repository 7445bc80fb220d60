"""How the work went, per ledger entry, for the leaderboard (pure): figures from the
scorecard's `work` section (turns, risky moves), each session's effective tokens, and the
reconciled review when an intact reviews section names the scorecard.

The ledger records what the rules decide on, not these signals: they come beside it, as the
verified runs' scorecard.json (and reviews.json) files (specsnap.leaderboard.site), and are
matched to entries by the scorecard's digest, recomputed here: a file that does not digest to an
entry's scorecard is not that entry's. Signals are shown, never ranked on.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from specsnap.review.agreement import reviewers_agreement
from specsnap.review.rules import Review
from specsnap.review.section import Section, check_section
from specsnap.scorecard.model import Scorecard
from specsnap.scorecard.scoring import effective_tokens


@dataclass(frozen=True)
class RunSignals:
    turns: int | None  # over the sessions with a trajectory; None when none has one
    risky_moves: int | None  # None without a work section
    session_tokens: tuple[float | None, ...]  # effective tokens of each session (None: unknown)
    review: Review | None = None  # from an intact section naming this scorecard


def run_signals(card: Scorecard, section: Section | None, digest: str) -> RunSignals:
    """The signals of the scorecard whose digest is `digest`; a reviews section that is not
    intact or names another scorecard is left out (specsnap verify says why)."""
    turns = risky = None
    if card.work is not None:
        risky = card.work.risky_moves_total
        counted = [w.trajectory.turns for w in card.work.sessions if w.trajectory is not None]
        turns = sum(counted) if counted else None
    tokens = tuple(effective_tokens([s.tokens]) for s in card.sessions)
    review = None
    if section is not None and not check_section(section, digest):
        review = section.review
    return RunSignals(turns, risky, tokens, review)


def mean_of(values: Iterable[float | None]) -> tuple[float | None, int]:
    """(mean of the known values, how many were known)."""
    known = [v for v in values if v is not None]
    return (sum(known) / len(known) if known else None), len(known)


def agreement(signals: Mapping[str, RunSignals]) -> tuple[float | None, int]:
    """The reviewers' agreement over every reviewed run (specsnap.review.agreement)."""
    return reviewers_agreement(s.review for s in signals.values() if s.review is not None)
