"""Stage II: adversarial state perturbation (docs/protocol.md, Stage II).

Between sessions SpecSnap changes the agent's workspace the way a real team's day does, and
afterwards judges whether the agent noticed and set it right:

- `between`: which perturbation goes before which session (the seed chooses), applying them,
  and their records (RUN_DIR/perturbations/K.json);
- `workspace`: the safe file and git operations they are made of (a teammate's commit, a
  revert of uncommitted work);
- `notes`: the agent's notes and the stale value planted in them;
- `assessment`: detected and repaired, from the graded commit, the grade and the tracker's log.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, cast

from specsnap.sandbox.gitrepo import GitError, git
from specsnap.scorecard.model import PerturbationKind, Session, StageTwo
from specsnap.stage2.perturbations.assessment import Evidence, counts
from specsnap.stage2.perturbations.between import (
    gap_for,
    incomplete_reasons,
    perturb_before,
    perturbation_records,
)
from specsnap.stage2.perturbations.kinds import assess
from specsnap.stage2.perturbations.workspace import NotApplicable, blob_content, head_blobs
from specsnap.tier.model import Tier

if TYPE_CHECKING:
    from specsnap.grading import Grade
    from specsnap.rundir import RecordedSession, Run

__all__ = [
    "gap_for",
    "incomplete_reasons",
    "perturb_before",
    "perturbation_records",
    "recovered_requirements",
    "regression_planted",
    "stage2_result",
    "stage2_tier",
]


def stage2_tier(tier: Tier, planted: bool) -> Tier:
    """The tier as Stage II grades it: the planted regression's hidden checks join the
    baseline, so a commit that fixes only the failing input fails the regression gate; where
    the regression was `planted`, so do the checks of the wanted change its commit also made
    (`keeps`), so reverting the whole commit fails too."""
    if tier.stage2 is None:
        return tier
    regression = tier.stage2.regression
    checks = (*regression.hidden_tests, *(regression.keeps if planted else ()))
    return replace(tier, hidden_baseline=(*tier.hidden_baseline, *checks))


def regression_planted(run_dir: Path) -> bool:
    """Whether a teammate's commit planted the regression in this run."""
    records = perturbation_records(run_dir)
    return any(r["kind"] == "planted-regression" and r["applied"] for r in records)


def stage2_result(run: Run, recorded: Sequence[RecordedSession], grade: Grade) -> StageTwo:
    """The scorecard's Stage II section: each perturbation assessed, and the recovery."""
    tier = run.tier
    sessions = [r.session for r in recorded]
    evidence = _evidence(run, sessions, grade)
    perturbations = tuple(assess(tier, r, evidence) for r in perturbation_records(run.run_dir))
    faults, detected, repaired = counts(perturbations)
    consultations = sum(s.tracker.consultations for s in sessions if s.tracker and s.index > 1)
    return StageTwo(
        perturbations_chosen=cast(tuple[PerturbationKind, ...], tuple(run.perturbations)),
        perturbations=perturbations,
        faults=faults,
        detected=detected,
        repaired=repaired,
        consultations=consultations,
        channel="recovered" if consultations else "retained without recovery",
    )


def recovered_requirements(recorded: Sequence[RecordedSession]) -> frozenset[str]:
    """The requirements whose ticket was read (shown, or listed) in a session after the first,
    in which or after which a session changed the sources (specsnap.sessions.sources): had
    they been retained, the agent would not have needed the tracker before writing them. A
    session whose record does not say counts as having changed them."""
    recovered: set[str] = set()
    changed_since = False  # a session from this one on changed the sources
    for r in sorted(recorded, key=lambda r: r.session.index, reverse=True):
        changed_since = changed_since or r.sources_changed
        if r.session.index > 1 and changed_since:
            recovered.update(r.tickets_read)
    return frozenset(recovered)


def _evidence(run: Run, sessions: Sequence[Session], grade: Grade) -> Evidence:
    try:
        head = {path: blob for path, (_mode, blob) in head_blobs(run.sandbox).items()}
        history = frozenset(git(run.sandbox, "rev-list", "HEAD").decode().split())
    except (GitError, NotApplicable, OSError):  # an unreadable HEAD repairs nothing
        head, history = {}, frozenset()
    shown = {
        s.index: frozenset(q.ticket for q in s.tracker.requests if q.ticket)
        for s in sessions
        if s.tracker
    }
    return Evidence(
        head=head,
        history=history,
        passed={r.id: r.passed for r in grade.requirements},
        failing=frozenset(f.test for f in grade.gate.baseline_failures),
        shown=shown,
        blob=lambda blob: blob_content(run.sandbox, blob),
    )
