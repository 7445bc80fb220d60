"""A run's steps: prepare → session 1..n → grade (the run on disk: specsnap.rundir).

Each step reads and writes `RUN_DIR/run.json`; each is idempotent and refuses, with the step it
needs first, when called out of order. The Action runs the steps as separate job steps; `specsnap
run` calls them in sequence.

As root, a run holds one account of the agent pool from prepare until it is graded
(specsnap.accounts.pools), so parallel runs on one machine never share an account.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path

from specsnap.accounts.identity import account_named, can_execute
from specsnap.accounts.pools import account_field, lease_agent_account, release_agent_account
from specsnap.errors import InputError, Problem, UsageError
from specsnap.grading import grade_repository
from specsnap.report import build_scorecard, write_report
from specsnap.rundir import (
    RUN_FILE,
    RecordedSession,
    Run,
    RunSpec,
    load_run,
    recorded_sessions,
)
from specsnap.sandbox.baseline import prepare_sandbox
from specsnap.sandbox.gitrepo import rev_parse
from specsnap.scorecard.codec import DecodeError, from_json
from specsnap.scorecard.model import Breach, Scorecard
from specsnap.scorecard.receipt import tier_digest
from specsnap.sessions.processes import account_pids, end_account
from specsnap.stage2.perturbations import (
    incomplete_reasons,
    perturb_before,
    recovered_requirements,
    regression_planted,
    stage2_result,
    stage2_tier,
)
from specsnap.stage2.stage import (
    STAGES,
    default_stage,
    perturbation_kinds,
    stage_problems,
    stage_unlocked,
)
from specsnap.tier.draws import values_for
from specsnap.tier.loading import load_tier
from specsnap.trajectory.work import HEAD_FILE, write_work_report

GRADING_BREACHES = "grading-breaches.json"  # what grading found of the agent still alive


def unofficial_reasons(run: Run) -> list[str]:
    """Why this run's scorecard is not official (settings that differ from the tier's)."""
    tier = run.tier
    reasons = []
    if run.time_limit_s is not None and run.time_limit_s != tier.time_limit_s:
        reasons.append(f"time limit {run.time_limit_s}s instead of {tier.time_limit_s}s")
    if run.budget_tokens is not None and run.budget_tokens != tier.budget_tokens:
        reasons.append(f"token budget {run.budget_tokens} instead of {tier.budget_tokens}")
    reasons += stage_problems(run.stage, run.stage2_unlocked, run.perturbations)
    return reasons + (incomplete_reasons(run.run_dir) if run.stage == 2 else [])


def prepare_run(spec: RunSpec, out: Path, *, check_agent: bool = True) -> Run:
    """Create the sandbox as docs/protocol.md says; a second call with the same settings is a no-op.

    The spec's `stage` defaults to the one every evaluation runs (specsnap.stage2.stage, from its
    ledger); `perturbations` names the kinds a Stage II run applies (default: all).
    `check_agent=False` defers the check of the agent's name to its first session: an adapter
    that the agent's own install registers does not exist before that install ran. `handoff` is
    how sessions after the cutoff continue (docs/protocol.md); a mode the agent cannot do is
    refused here, or at that first session.
    """
    from specsnap.agents.base import get_agent, require_handoff  # refused before any work

    if check_agent:
        require_handoff(get_agent(spec.agent), spec.handoff)
    loaded = load_tier(spec.tier)
    unlocked = stage_unlocked(spec.ledger)  # reads and checks the ledger: once
    stage = default_stage(unlocked) if spec.stage is None else spec.stage
    if stage not in STAGES:
        raise UsageError(f"unknown stage {stage}; known: {', '.join(map(str, STAGES))}")
    if stage == 2 and loaded.stage2 is None:
        raise UsageError(
            f"{loaded.id} has no Stage II material (tier.yaml `stage2`, docs/tiers.md)"
        )
    if stage == 1 and spec.perturbations is not None:
        raise UsageError("perturbations are Stage II's: add --stage 2")
    wanted = Run(
        run_dir=out.resolve(),
        tier_dir=str(loaded.root),
        tier_id=loaded.id,
        tier_sha256=tier_digest(loaded.root),
        seed=spec.seed,
        agent=spec.agent,
        agent_options=dict(spec.agent_options),
        pass_env=list(spec.pass_env),
        time_limit_s=spec.time_limit_s,
        budget_tokens=spec.budget_tokens,
        stage=stage,
        perturbations=list(perturbation_kinds(spec.perturbations)) if stage == 2 else [],
        stage2_unlocked=unlocked,
        handoff=spec.handoff,
    )
    if (out / RUN_FILE).is_file():
        existing = load_run(out)
        if not existing.baseline_commit:
            raise UsageError(
                f"an earlier prepare of {out} did not finish; remove it and prepare again"
            )
        same = replace(
            existing,
            baseline_commit="",
            sessions_done=[],
            agent_account="",
            stage2_unlocked=wanted.stage2_unlocked,  # the ledger may have moved on since
        )
        if same != wanted:
            raise UsageError(f"{out} already holds a different run; choose another --out")
        return existing
    if out.exists() and any(out.iterdir()):
        raise UsageError(f"{out} exists and is not empty; choose another --out")
    out.mkdir(parents=True, exist_ok=True)
    out.chmod(0o711)  # the agent may pass through to its sandbox, never list the run
    # run.json names the account from the moment the lease does (both under the pool's lock):
    # a lease is held exactly as long as a run.json records it.
    run_as = lease_agent_account(
        wanted.run_dir,
        on_lease=lambda account: replace(wanted, agent_account=account_field(account)).save(),
    )
    if not can_execute(str(out), run_as):
        release_agent_account(wanted.run_dir)
        (out / RUN_FILE).unlink(missing_ok=True)
        raise UsageError(
            f"the agent account {run_as.name!r} cannot reach {out.resolve()}: a parent directory "
            "is closed to it; choose a run directory under a world-searchable one such as /tmp"
        )
    commit = prepare_sandbox(loaded.starter, out / "sandbox")
    (out / "sessions").mkdir(mode=0o700)
    run = replace(wanted, baseline_commit=commit, agent_account=account_field(run_as))
    run.save()
    return run


def require_session_order(run: Run, index: int) -> None:
    """Refuse a session that is not the next one, or a run that is already graded."""
    sessions = run.tier.sessions
    if not 1 <= index <= sessions:
        raise UsageError(f"{run.tier_id} has sessions 1..{sessions}; got {index}")
    if index in run.sessions_done:
        raise UsageError(f"session {index} of {run.run_dir} already ran")
    expected = len(run.sessions_done) + 1
    if index != expected:
        raise UsageError(f"session {index} cannot run yet: run session {expected} first")


def run_session(
    run_dir: Path,
    index: int,
    on_cutoff: Callable[[str], None] | None = None,
    *,
    environ: Mapping[str, str],
) -> RecordedSession:
    """Run session `index` of the prepared run (see specsnap.sessions); `environ` is what the
    front end hands the session of its environment (the PATH, the passed names, the API keys)."""
    from specsnap.agents.base import get_agent, require_handoff
    from specsnap.sessions import run_agent_session

    run = load_run(run_dir)
    require_session_order(run, index)
    if index == 1:  # the agent may not have existed when the run was prepared
        require_handoff(get_agent(run.agent), run.handoff)
    run_as = lease_agent_account(run.run_dir, run.agent_account or None)
    if run.stage == 2 and index > 1:
        perturb_before(run, index)  # the sandbox is root's until the session hands it over
    recorded = run_agent_session(run, run_as, index, environ, on_cutoff)
    (run.session_dir(index) / HEAD_FILE).write_text((rev_parse(run.sandbox) or "") + "\n")
    replace(run, sessions_done=[*run.sessions_done, index]).save()
    return recorded


def session_breaches(recorded: Sequence[RecordedSession], run: Run) -> list[Breach]:
    """Every protocol breach the sessions recorded, in session order, and what grading found of
    the agent still alive (GRADING_BREACHES), so a rebuild sees it too."""
    found = [breach for r in recorded for breach in r.session.breaches]
    path = run.run_dir / GRADING_BREACHES
    if not path.is_file():
        return found
    try:
        return found + [
            from_json(Breach, b, f"[{i}]") for i, b in enumerate(json.loads(path.read_text()))
        ]
    except (DecodeError, ValueError, TypeError) as exc:
        key, value = (exc.path, exc.found) if isinstance(exc, DecodeError) else ("", str(exc))
        raise InputError([Problem(str(path), key, value, "a list of breaches")]) from None


def grade_run(run_dir: Path) -> Scorecard:
    """Grade HEAD of the run's sandbox; writes scorecard.json and scorecard.md."""
    run = load_run(run_dir)
    tier = run.tier
    missing = [i for i in range(1, tier.sessions + 1) if i not in run.sessions_done]
    if missing:
        raise UsageError(f"cannot grade {run_dir}: session {missing[0]} has not run")
    recorded = recorded_sessions(run)
    _record_alive_at_grading(run)
    breaches = session_breaches(recorded, run)
    # Before the scorecard, which shows it (and `verify --run` rebuilds it from the same file).
    values = values_for(tier, run.seed)
    write_work_report(run_dir, run.sandbox, run.baseline_commit, run.sessions_done, tier, values)
    started = time.monotonic()
    card = regrade(run, recorded, breaches, started)
    write_report(card, run_dir)
    release_agent_account(run.run_dir)
    return card


def regrade(
    run: Run, recorded: Sequence[RecordedSession], breaches: list[Breach], started: float
) -> Scorecard:
    """Grade HEAD of the run's sandbox and build its scorecard (grading and `verify --run`).

    Stage II grades with the regression's checks in the gate, and assesses each perturbation
    against the graded commit and the tracker's logs (specsnap.stage2.perturbations)."""
    tier = run.tier
    graded_tier = stage2_tier(tier, regression_planted(run.run_dir)) if run.stage == 2 else tier
    grade = grade_repository(graded_tier, run.sandbox, values_for(tier, run.seed), breaches)
    stage2 = stage2_result(run, recorded, grade) if run.stage == 2 else None
    recovered = recovered_requirements(recorded) if run.stage == 2 else frozenset()
    grading_s = time.monotonic() - started
    reasons = unofficial_reasons(run)
    sessions = [r.session for r in recorded]
    return build_scorecard(run, tier, sessions, grade, grading_s, reasons, stage2, recovered)


def _record_alive_at_grading(run: Run) -> None:
    """Nothing of the agent may run while its work is graded: end whatever of its account is
    alive (nothing should be; the sessions ended it all) and record it as a breach in the run's
    records (root's), where `verify --run` finds it again."""
    account = account_named(run.agent_account) if run.agent_account else None
    if account is None or os.geteuid() != 0 or not account_pids(account.uid):
        return
    alive = end_account(account)
    what = f"{alive} process(es) of the agent's account were alive at grading; SpecSnap ended them"
    path = run.run_dir / GRADING_BREACHES
    path.write_text(json.dumps([{"session": run.tier.sessions, "what": what}]) + "\n")
    path.chmod(0o600)
