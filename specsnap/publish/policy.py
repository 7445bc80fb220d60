"""When a scorecard fails the job (and its check run): the `fail_on` policy."""

from __future__ import annotations

from collections.abc import Iterable
from enum import Enum

from specsnap.scorecard.model import Scorecard


class FailOn(Enum):
    """`not_passed`: fail unless PASS; `gate`: fail only when the regression gate broke;
    `never`: report only (the check run concludes `neutral` instead of `failure`)."""

    NOT_PASSED = "not_passed"
    GATE = "gate"
    NEVER = "never"


def fails(card: Scorecard, policy: FailOn) -> bool:
    if policy is FailOn.NOT_PASSED:
        return not card.passed
    if policy is FailOn.GATE:
        return not card.gate.holds
    return False


def any_fails(cards: Iterable[Scorecard], policy: FailOn) -> bool:
    return any(fails(card, policy) for card in cards)


def conclusion(card: Scorecard, policy: FailOn) -> str:
    """The check run's conclusion: success when passed, else failure or (policy `never`,
    or `gate` with the gate holding) neutral."""
    if card.passed:
        return "success"
    return "failure" if fails(card, policy) else "neutral"
