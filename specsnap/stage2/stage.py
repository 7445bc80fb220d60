"""Which stage a run plays (docs/protocol.md), and when a Stage II run is official.

Stage I measures what survives the cutoffs. Stage II (adversarial state perturbation) also
changes the workspace between sessions — a stale note, a planted regression, lost work in
progress, a teammate's refactor (specsnap.stage2.perturbations) — and opens a recovery channel, the
ticket tracker (specsnap.stage2.tracker). Stage II is locked until a verified scorecard has PASS and
TES ≥ 0.75; from then on every evaluation runs it. Whether it is unlocked is the curriculum
ledger's to say: `stage_unlocked` is the one place that asks.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import get_args

from specsnap.errors import UsageError
from specsnap.ledger.store import stage_required
from specsnap.scorecard.model import PerturbationKind

STAGES = (1, 2)

#: Every kind of perturbation (the scorecard's names; what each does and how it is judged:
#: specsnap.stage2.perturbations.kinds), in the order they are applied between two sessions:
#: the lost edit first (so teammates' commits meet a working tree without it), then the
#: teammate's commits, then the note (whose stale value is chosen from what the agent's code
#: lacks).
PERTURBATION_KINDS: tuple[str, ...] = get_args(PerturbationKind)


def stage_unlocked(ledger: Path | None) -> bool:
    """Whether a verified scorecard has unlocked Stage II: the curriculum `ledger` answers
    (docs/leaderboard.md; the front ends read $SPECSNAP_LEDGER). Without a ledger, Stage II
    stays locked; a ledger that cannot be read is an error, never read as locked."""
    if ledger is None or not ledger.exists():
        return False
    return stage_required(ledger) == 2


def default_stage(unlocked: bool) -> int:
    """The stage an evaluation runs when none is asked for: Stage II once it is unlocked."""
    return 2 if unlocked else 1


def perturbation_kinds(names: str | Iterable[str] | None) -> tuple[str, ...]:
    """The kinds named (comma-separated or a list), in application order; None = all of them.
    An unknown name is a UsageError that lists the known ones."""
    if names is None:
        return PERTURBATION_KINDS
    wanted = [n.strip() for n in (names.split(",") if isinstance(names, str) else names)]
    wanted = [n for n in wanted if n]
    unknown = sorted(set(wanted) - set(PERTURBATION_KINDS))
    if unknown or not wanted:
        raise UsageError(
            f"unknown perturbation(s) {', '.join(unknown) or '(none given)'}; "
            f"known: {', '.join(PERTURBATION_KINDS)}"
        )
    return tuple(k for k in PERTURBATION_KINDS if k in wanted)


def stage_problems(stage: int, unlocked: bool, kinds: Sequence[str]) -> list[str]:
    """Why a run of `stage` is not official, given whether Stage II was unlocked when it was
    prepared and which perturbations it applies."""
    reasons = []
    if stage == 2 and not unlocked:
        reasons.append(
            "Stage II is locked (no verified scorecard has PASS and TES ≥ 75% yet), so a "
            "Stage II run is unofficial"
        )
    if stage == 1 and unlocked:
        reasons.append("Stage II is unlocked, so every evaluation runs Stage II; this is Stage I")
    if stage == 2 and tuple(kinds) != PERTURBATION_KINDS:
        reasons.append(f"only some perturbations were applied ({', '.join(kinds)}), not all four")
    return reasons
