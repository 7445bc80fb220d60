"""The report step: a graded run's scorecard, built, sealed and written.

`build_scorecard` is the one way a run becomes a scorecard: the engine calls it after grading,
and `specsnap verify --run` calls it again to rebuild the scorecard it checks. It takes the run's
settings, its tier, its sessions as their records state them (specsnap.rundir), the grade and
the run's work.json (how the work went, written before grading), and nothing else. `write_report`
writes scorecard.json and scorecard.md beside the run.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Protocol, cast

from specsnap import __version__
from specsnap.accounts.identity import account_named, current_user, isolation_problems
from specsnap.errors import InputError, Problem
from specsnap.render.markdown import render_markdown
from specsnap.scorecard.codec import DecodeError
from specsnap.scorecard.io import seal, write_scorecard
from specsnap.scorecard.model import (
    SCHEMA_VERSION,
    Agent,
    HandoffMode,
    Receipt,
    Requirement,
    Retention,
    Scorecard,
    Session,
    Stage,
    StageTwo,
    Timings,
    Work,
)
from specsnap.scorecard.scoring import compute_scores, token_trust_problems
from specsnap.scorecard.work import work_of
from specsnap.tier.draws import draw
from specsnap.trajectory.work import WORK_FILE

if TYPE_CHECKING:
    from specsnap.grading import Grade
    from specsnap.tier.model import Tier


class RunSettings(Protocol):
    """What a scorecard takes from the run (specsnap.rundir.Run has it)."""

    @property
    def run_dir(self) -> Path: ...
    @property
    def seed(self) -> int: ...
    @property
    def agent(self) -> str: ...
    @property
    def agent_options(self) -> Mapping[str, str]: ...
    @property
    def budget_tokens(self) -> int | None: ...
    @property
    def tier_sha256(self) -> str: ...
    @property
    def agent_account(self) -> str: ...  # "" when the agent ran as SpecSnap's own user
    @property
    def stage(self) -> int: ...
    @property
    def handoff(self) -> str: ...


def retention(requirement: Requirement, recovered: frozenset[str]) -> Retention:
    """Stage II: retained, recovered (it passed after its ticket was read) or lost."""
    if not requirement.passed:
        return "lost"
    return "recovered" if requirement.id in recovered else "retained"


def build_scorecard(
    run: RunSettings,
    tier: Tier,
    sessions: Sequence[Session],
    grade: Grade,
    grading_s: float,
    unofficial: Sequence[str] = (),
    stage2: StageTwo | None = None,
    recovered: frozenset[str] = frozenset(),
) -> Scorecard:
    """The sealed scorecard of a graded run: a function of its settings, its tier, the sessions
    as their records state them, the grade and work.json. `unofficial` says why the run's
    settings make it unofficial (runs.unofficial_reasons). A Stage II run gives its
    perturbations and recovery as `stage2`, and the requirements that passed only after their
    ticket was read as `recovered`."""
    requirements, gate = grade.requirements, grade.gate
    if stage2 is not None:
        requirements = tuple(replace(r, retention=retention(r, recovered)) for r in requirements)
    scores = compute_scores(
        [r.passed for r in requirements],
        gate.holds,
        [s.tokens for s in sessions],
        run.budget_tokens or tier.budget_tokens,
        tier.pass_threshold,
        retained=[r.retention == "retained" for r in requirements] if stage2 else None,
    )
    drawn = {name: str(value) for name, value in draw(tier, run.seed).items()}
    secrets = [tier.grader, tier.solution, run.run_dir / "sessions"]
    if run.stage == 2:  # the regression's fixes and the records of what was perturbed
        secrets += [tier.root / "stage2", run.run_dir / "perturbations"]
    agent = (account_named(run.agent_account) if run.agent_account else None) or current_user()
    reasons = [*unofficial, *isolation_problems(agent, secrets)]
    reasons += token_trust_problems(sessions) + _handoff_problems(sessions)
    card = Scorecard(
        schema_version=SCHEMA_VERSION,
        specsnap_version=__version__,
        tier_id=tier.id,
        tier_name=tier.name,
        seed=run.seed,
        params=drawn,
        stage=_stage(run.stage),
        agent=Agent(run.agent, dict(sorted(run.agent_options.items()))),
        official=not reasons,
        unofficial_reasons=tuple(reasons),
        sessions=tuple(sessions),
        requirements=requirements,
        gate=gate,
        scores=scores,
        grading=grade.facts,
        timings=Timings(tuple(s.duration_s for s in sessions), round(grading_s, 3)),
        stage2=stage2,
        handoff=_handoff(run.handoff),
        work=_work(run.run_dir / WORK_FILE),
        receipt=Receipt(
            seed=run.seed,
            params=drawn,
            stage=_stage(run.stage),
            specsnap_version=__version__,
            tier_id=tier.id,
            tier_sha256=run.tier_sha256,
            head_commit=grade.head_commit,
            sandbox_tree_sha256=grade.tree_sha256,
            scorecard_sha256="",
            handoff=_handoff(run.handoff),
        ),
    )
    return seal(card)


def _work(path: Path) -> Work | None:
    """How the work went, from work.json; None for a run graded before it existed."""
    if not path.is_file():
        return None
    with _problem_in(str(path)):
        try:
            document = json.loads(path.read_text(encoding="utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise DecodeError("", f"unreadable JSON ({exc})", "a JSON object") from None
        return work_of(document)


def _handoff_problems(sessions: Sequence[Session]) -> list[str]:
    """A session that could not resume its predecessor did not measure the handoff asked for."""
    return [
        f"session {s.index} could not resume: {s.handoff.error}"
        for s in sessions
        if s.handoff is not None and s.handoff.error
    ]


def _handoff(mode: str) -> HandoffMode:
    if mode not in ("fresh", "resume", "compact"):
        raise InputError([Problem("run.json", "handoff", mode, "fresh, resume or compact")])
    return cast(HandoffMode, mode)


def _stage(stage: int) -> Stage:
    if stage not in (1, 2):
        raise InputError([Problem("run.json", "stage", str(stage), "1 or 2")])
    return 1 if stage == 1 else 2


@contextmanager
def _problem_in(file: str) -> Iterator[None]:
    """A DecodeError of what `file` holds, as the InputError that names it."""
    try:
        yield
    except DecodeError as exc:
        raise InputError([Problem(file, exc.path, exc.found, exc.expected)]) from None


def write_report(card: Scorecard, run_dir: Path) -> None:
    """Write scorecard.json and scorecard.md into `run_dir`, each atomically."""
    write_scorecard(card, run_dir / "scorecard.json")
    tmp = run_dir / "scorecard.md.tmp"
    tmp.write_text(render_markdown(card), encoding="utf-8")
    os.replace(tmp, run_dir / "scorecard.md")
