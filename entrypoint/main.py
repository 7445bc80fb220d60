"""The Action's pipeline: `main(settings, gha)` runs the chosen step and returns the exit code.

Steps map onto the library: prepare → `specsnap.runs.prepare_run`, session →
`specsnap.agentenv.install_agent` (when `agent_install` is given) and `run_session`, grade →
`grade_run`, publish → `entrypoint.publishing` (`specsnap.publish.pipeline`, after
`specsnap.verify.verify_scorecard` with `verify`), badge → `specsnap.publish.branch`, bot →
`specsnap.bot.respond.handle_comment`, submit → `specsnap.submission.bundle.create_submission`;
`all` runs prepare, every session, grade and publish.
Every step ends by handing what it wrote in the workspace to the workspace's owner
(`specsnap.accounts.ownership`). Exit codes (STYLE.md): 0 ran and passed, 1 ran and did not pass
(per `fail_on`), 2 bad input, 3 infrastructure failure.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from entrypoint.gha import GitHubActions
from entrypoint.publishing import (
    NOT_EVALUATED,
    announce,
    publish,
    publish_badge,
    score_outputs,
    session_feedback,
    start_feedback,
    write_badge,
)
from entrypoint.settings import Settings, Step
from specsnap import rundir, runs
from specsnap.accounts.identity import account_named, current_user
from specsnap.accounts.ownership import check_owner, hand_over, reclaim, workspace_owner
from specsnap.agentenv.install import AgentEnv, agent_path, install_agent, load_agent_env, seal
from specsnap.agentenv.remote import RemoteEnvironment
from specsnap.agents.base import use_agent_environment
from specsnap.bot.respond import BotResult, Outcome, comment_event, handle_comment
from specsnap.errors import InfrastructureError, SpecSnapError, UsageError
from specsnap.publish.github import connect, get_repository
from specsnap.publish.policy import any_fails
from specsnap.render.markdown import render_markdown
from specsnap.render.terminal import render_session
from specsnap.scorecard.model import Scorecard
from specsnap.scorecard.receipt import merkle_digest
from specsnap.submission.bundle import create_submission
from specsnap.tier.loading import load_tier


def main(settings: Settings, gha: GitHubActions) -> int:
    """Run `settings.step`; expected failures become an error annotation and their exit code."""
    try:
        with _owned(settings):
            return _run(settings, gha)
    except SpecSnapError as exc:
        gha.error(str(exc), title=f"SpecSnap {settings.step.value} step")
        return exc.exit_code
    finally:
        gha.close_annotations()


@contextmanager
def _owned(settings: Settings) -> Iterator[None]:
    """Root's run directory during the step; the workspace owner's everything after it."""
    owner = workspace_owner(settings.workspace)
    if owner is None:
        yield
        return
    check_owner(owner)
    if settings.run_dir is not None:
        reclaim(settings.run_dir, owner)
    try:
        yield
    finally:
        hand_over(settings.workspace, owner)
        home = Path(os.environ.get("HOME") or "/nonexistent")
        if home.is_dir() and home.stat().st_uid == owner.uid:
            hand_over(home, owner)


def _run(settings: Settings, gha: GitHubActions) -> int:
    step = settings.step
    if step is Step.BOT:
        return _bot(settings, gha)
    if step is Step.SUBMIT:
        _submit(settings, gha)
        return 0
    if step is Step.BADGE:
        return publish_badge(settings, gha)
    if step is Step.ANNOUNCE:
        return announce(settings, gha)
    evaluated = True
    if step in (Step.PREPARE, Step.ALL):
        evaluated = _prepare(settings, gha)
    elif step in (Step.SESSION, Step.GRADE):
        evaluated = _evaluated(settings, gha)
        if evaluated and step is Step.SESSION:
            evaluated = _session_keys(settings, gha)
    if evaluated and step in (Step.SESSION, Step.ALL):
        with _agent_environment(settings, gha) as installed:
            environ = _session_environ(settings, installed)
            for index in _session_numbers(settings):
                _session(settings, gha, index, environ)
    cards: list[Scorecard] = []
    if evaluated and step in (Step.GRADE, Step.ALL):
        cards = [_grade(settings, gha, summary=step is Step.GRADE)]
    if step in (Step.PUBLISH, Step.ALL):
        cards = publish(settings, gha)
    if not cards:
        return 0
    return 1 if any_fails(cards, settings.fail_on) else 0


def _session_numbers(settings: Settings) -> list[int]:
    if settings.step is Step.SESSION:
        assert settings.session is not None
        return [settings.session]
    return list(range(1, rundir.load_run(_run_dir(settings)).tier.sessions + 1))


def _run_dir(settings: Settings) -> Path:
    if settings.run_dir is None:
        raise UsageError("no run directory: give run_dir, or tier and seed")
    return settings.run_dir


def _prepare(settings: Settings, gha: GitHubActions) -> bool:
    """Prepare the run; False (and a `not-evaluated.json`) when a key it needs is missing."""
    assert settings.tier is not None and settings.agent is not None
    run_dir = _run_dir(settings)
    tier = load_tier(settings.tier)
    gha.set_output("run_dir", settings.shown(run_dir))
    gha.set_output("sessions", str(tier.sessions))
    missing = _missing_keys(settings, settings.pass_env, prepare=True)
    if missing:
        reason = (
            f"no API key: {', '.join(missing)} is empty (a pull request from a fork or by "
            "Dependabot gets no secrets)"
        )
        _not_evaluated(settings, gha, tier.id, reason)
        return False
    spec = rundir.RunSpec(
        settings.tier,
        settings.seed,
        settings.agent,
        dict(settings.agent_options),
        tuple(settings.pass_env),
        time_limit_s=settings.time_limit_s,
        stage=settings.stage,
        handoff=settings.handoff,
        ledger=settings.ledger,
    )
    with gha.group(f"Prepare {settings.tier}, seed {settings.seed}, agent {settings.agent}"):
        # The agent's adapter may come with its install: checked at its first session then.
        runs.prepare_run(spec, run_dir, check_agent=not settings.agent_install)
    gha.set_output("evaluated", "true")
    start_feedback(settings, gha, run_dir)
    return True


def _missing_keys(
    settings: Settings, names: tuple[str, ...] | list[str], *, prepare: bool = False
) -> list[str]:
    """Which of `names` (the variables the agent is to see) have no value. The prepare step of
    a split evaluation has no key in its environment (only the session steps get them): it
    judges by `keys_present`, the names the workflow has secrets for, and leaves the names that
    may come in `api_keys` (a secret whose names no workflow expression can list) to the
    session steps."""
    if prepare and settings.keys_present:
        if "SPECSNAP_API_KEYS" in settings.keys_present:
            return []
        return [name for name in names if name not in settings.keys_present]
    return [name for name in names if not (os.environ.get(name) or settings.api_keys.get(name))]


def _not_evaluated(settings: Settings, gha: GitHubActions, tier_id: str, reason: str) -> None:
    """Record that the run is not evaluated, and why, where publish and later steps look."""
    run_dir = _run_dir(settings)
    run_dir.mkdir(parents=True, exist_ok=True)
    skipped = {"tier_id": tier_id, "seed": settings.seed, "agent": settings.agent}
    (run_dir / NOT_EVALUATED).write_text(json.dumps({**skipped, "reason": reason}) + "\n")
    gha.notice(f"{tier_id}, seed {settings.seed} is not evaluated: {reason}")
    gha.add_summary(f"**SpecSnap** — {tier_id}, seed {settings.seed}: not evaluated: {reason}\n")
    gha.set_output("evaluated", "false")


def _session_keys(settings: Settings, gha: GitHubActions) -> bool:
    """Before a session step: every key the run's agent is to see is here (`api_keys` joins
    the environment of this step only), or the run is not evaluated and the summary says which
    key the session lacked."""
    run = rundir.load_run(_run_dir(settings))
    missing = _missing_keys(settings, run.pass_env)
    if missing:
        reason = f"no API key: session {settings.session} had no {', '.join(missing)}"
        _not_evaluated(settings, gha, run.tier_id, reason)
        return False
    return True


def _session_environ(settings: Settings, installed: AgentEnv | None) -> dict[str, str]:
    """What the sessions are handed of this step (specsnap.sessions reads nothing else): its
    environment, each key the run passes that it lacks from `api_keys`, and the agent's PATH."""
    environ = dict(os.environ)
    for name in rundir.load_run(_run_dir(settings)).pass_env:
        if not environ.get(name) and settings.api_keys.get(name):
            environ[name] = settings.api_keys[name]
    environ["PATH"] = agent_path(installed)
    return environ


def _evaluated(settings: Settings, gha: GitHubActions) -> bool:
    """False when prepare found the run could not be evaluated (nothing to do, no failure)."""
    marker = _run_dir(settings) / NOT_EVALUATED
    if not marker.is_file():
        return True
    gha.log(f"not evaluated: {json.loads(marker.read_text())['reason']}")
    gha.set_output("evaluated", "false")
    return False


#: The agent's install, once per job (docs/action.md): which install it is, and its digest.
AGENT_INSTALL_RECORD = "agent-install.json"


@contextmanager
def _agent_environment(settings: Settings, gha: GitHubActions) -> Iterator[AgentEnv | None]:
    """The agent's own environment, whose directories go first on its sessions' PATH (never
    SpecSnap's venv): the one `agent_install` installs as the run's agent account, with the
    adapters it registers; None without `agent_install`."""
    if not settings.agent_install:
        yield None
        return
    env = _installed_agent(settings, gha)
    use_agent_environment(RemoteEnvironment(env))
    try:
        yield env
    finally:
        use_agent_environment(None)


def _installed_agent(settings: Settings, gha: GitHubActions) -> AgentEnv:
    """The run's agent environment: installed by the first session step, into the workspace
    (every later step of the job sees it there, as each step is a fresh container), its Merkle
    digest recorded in the root-only run directory; later steps use it after checking the
    digest, and a changed install is an error, never a silent reinstall."""
    run_dir = _run_dir(settings)
    command = settings.agent_install
    assert command is not None
    prefix = settings.workspace / ".specsnap" / f"specsnap-agent-{run_dir.name}"
    record = run_dir / AGENT_INSTALL_RECORD
    owner = workspace_owner(settings.workspace)
    if record.is_file():
        recorded = json.loads(record.read_text(encoding="utf-8"))
        if recorded.get("command") != command:
            raise UsageError(
                f"agent_install changed since the agent was installed for this run "
                f"({recorded.get('command')!r} → {command!r}); every session "
                "step of a job uses the same agent"
            )
        if owner is not None:
            reclaim(prefix, owner)  # the runner's between steps; root's while sessions run
        seal(prefix)
        digest = merkle_digest(prefix) if prefix.is_dir() else "(missing)"
        if digest != recorded.get("digest"):
            raise InfrastructureError(
                f"the agent installed for this run at {settings.shown(prefix)} changed since it "
                f"was installed (digest {recorded.get('digest')} → {digest}); SpecSnap never "
                "reinstalls it silently: run the job again"
            )
        gha.log(f"The agent installed for this run, unchanged (digest {digest[:12]})")
        return load_agent_env(prefix)
    named = rundir.load_run(run_dir).agent_account
    account = account_named(named) if named else current_user()
    if account is None:
        raise InfrastructureError(f"the run's agent account {named!r} does not exist here")
    if prefix.is_dir() and not prefix.is_symlink():
        shutil.rmtree(prefix)  # an earlier run's of the same name: this run installs afresh
    elif prefix.exists() or prefix.is_symlink():
        prefix.unlink()
    prefix.mkdir(parents=True)
    with gha.group(f"Install the agent (as {account.name}, into {prefix})"):
        env = install_agent(command, settings.workspace, account, prefix)
    digest = merkle_digest(prefix)
    record.write_text(json.dumps({"command": command, "digest": digest}) + "\n", encoding="utf-8")
    gha.log(f"Installed once for every session step of this job (digest {digest[:12]})")
    return env


def _session(settings: Settings, gha: GitHubActions, index: int, environ: dict[str, str]) -> None:
    with gha.group(f"Session {index}"):
        session = runs.run_session(_run_dir(settings), index, environ=environ).session
    gha.log(render_session(session))
    gha.set_output("session", str(index))
    gha.set_output("cutoff_fired", str(session.cutoff.fired).lower())
    gha.set_output("session_status", session.exit.status)
    session_feedback(settings, gha, _run_dir(settings), index)


def _grade(settings: Settings, gha: GitHubActions, *, summary: bool) -> Scorecard:
    run_dir = _run_dir(settings)
    with gha.group("Grade"):
        card = runs.grade_run(run_dir)
    score_outputs(gha, [card])
    gha.set_output("scorecard_path", settings.shown(run_dir / "scorecard.json"))
    write_badge(settings, gha, [card], run_dir)
    if summary:
        gha.add_summary(render_markdown(card))
    return card


def _submit(settings: Settings, gha: GitHubActions) -> None:
    """The graded run as one leaderboard submission (docs/leaderboard.md)."""
    with gha.group("Submission bundle"):
        bundle = create_submission(_run_dir(settings))
    gha.set_output("bundle", settings.shown(bundle))


def _bot(settings: Settings, gha: GitHubActions) -> int:
    """`issue_comment` front end of the bot: answer the comment, say whether to evaluate."""
    event = comment_event(settings.event) if settings.event_name == "issue_comment" else None
    result = BotResult(Outcome.IGNORED)
    if event is not None:
        if settings.api is None:
            raise UsageError("the bot step needs github_token to read permissions and reply")
        repo = get_repository(connect(settings.api), settings.repository)
        result = handle_comment(
            repo, event, lambda command, number, sha: settings.run_url, settings.bot_command
        )
    started = result.outcome is Outcome.STARTED
    gha.set_output("run", "true" if started else "false")
    gha.set_output("bot_outcome", result.outcome.value)
    gha.set_output("tier", result.command.tier if result.command else "")
    gha.set_output("seed", str(result.command.seed) if result.command else "")
    gha.set_output("pull_request", str(event.number) if event and started else "")
    gha.set_output("commit", result.head_sha or "")
    gha.log(f"bot: {result.outcome.value}")
    return 0
