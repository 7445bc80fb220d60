"""Every kind of Stage II perturbation, once: how it changes the workspace between two sessions
and how the agent's detection and repair of it are judged.

The names, in the order they are applied, are the scorecard's `PerturbationKind`
(specsnap.scorecard.model, which the schema is made from); the words for each are
specsnap.render.words's (the pure core cannot import this). A kind without a judge keeps
behaviour: it is no fault to repair.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from specsnap.scorecard.model import Perturbation, PerturbationKind
from specsnap.stage2.perturbations import appliers
from specsnap.stage2.perturbations.assessment import (
    Evidence,
    Verdict,
    entry,
    judge_lost_work,
    judge_regression,
    judge_stale_note,
)
from specsnap.tier.model import Tier

Judge = Callable[[Tier, Mapping[str, Any], Evidence], Verdict]


@dataclass(frozen=True)
class Kind:
    name: PerturbationKind
    apply: appliers.Applier
    judge: Judge | None  # None: no fault (it keeps behaviour), never detected nor repaired
    #: Not applied for want of anything the agent carried, it still counts as a fault, neither
    #: detected nor repaired: keeping nothing must not earn a smaller denominator.
    counted_when_nothing_carried: bool = False


KINDS: Mapping[str, Kind] = {
    kind.name: kind
    for kind in (
        Kind("lost-work", appliers.lost_work, judge_lost_work),
        Kind("teammate-refactor", appliers.teammate("teammate-refactor"), None),
        Kind("planted-regression", appliers.teammate("planted-regression"), judge_regression),
        Kind("stale-note", appliers.stale_note, judge_stale_note, True),
    )
}


def assess(tier: Tier, record: Mapping[str, Any], evidence: Evidence) -> Perturbation:
    """The scorecard's entry for one perturbation record, judged by its kind."""
    kind = KINDS[record["kind"]]
    if record["applied"] and kind.judge is not None:
        return entry(record, kind.judge(tier, record, evidence))
    if kind.counted_when_nothing_carried and record.get("nothing_carried"):
        return entry(record, (False, False))
    return entry(record, (None, None))
