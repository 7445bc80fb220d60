"""The Action's pipeline: `main(settings, gha)` runs the chosen step and returns the exit code.

Steps map onto the library: prepare → `specsnap.runs.prepare_run`, session →
`specsnap.agentenv.install_agent` (when `agent_install` is given) and `run_session`, grade →
`grade_run`, publish → `specsnap.publish.pipeline.publish_scorecards` (after
`specsnap.verify.verify_scorecard` with `verify`), badge → `specsnap.publish.branch`, bot →
`specsnap.bot.respond.handle_comment`, submit → `specsnap.submission.bundle.create_submission`;
`all` runs prepare, every session, grade and publish.
Every step ends by handing what it wrote in the workspace to the workspace's owner
(`specsnap.ownership`). Exit codes (STYLE.md): 0 ran and passed, 1 ran and did not pass (per
`fail_on`), 2 bad input, 3 infrastructure failure.
"""

from __future__ import annotations

import glob
import json
import os
import shutil
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from entrypoint.gha import GitHubActions
from entrypoint.settings import Settings, Step
from specsnap import runs
from specsnap.agentenv.install import agent_path, install_agent
from specsnap.agentenv.remote import RemoteEnvironment
from specsnap.agents.base import use_agent_environment
from specsnap.bot.respond import BotResult, Outcome, comment_event, handle_comment
from specsnap.errors import InfrastructureError, SpecSnapError, UsageError
from specsnap.identity import account_named, current_user
from specsnap.ownership import check_owner, hand_over, reclaim, workspace_owner
from specsnap.publish.branch import publish_files
from specsnap.publish.github import connect, get_repository
from specsnap.publish.pipeline import PublishOptions, PublishResult, publish_scorecards
from specsnap.publish.policy import any_fails
from specsnap.publish.target import target_from_event
from specsnap.render import badge
from specsnap.render.checks import annotations_for
from specsnap.render.comment import NotEvaluated
from specsnap.render.markdown import render_markdown
from specsnap.render.terminal import render_session
from specsnap.scorecard.io import load_scorecard
from specsnap.scorecard.model import Scorecard, Session
from specsnap.submission.bundle import create_submission
from specsnap.tiers import load_tier
from specsnap.verify import verify_scorecard

#: Beside a scorecard, or instead of one: a run that was not evaluated, and why.
NOT_EVALUATED = "not-evaluated.json"
VERIFIED_NOTE = (
    "Verified before publishing: each run's final commit was regraded and its scorecard rebuilt "
    "from the run's records. The session records (cutoffs, tokens) are as the evaluating "
    "workflow reported them."
)


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
        return _badge(settings, gha)
    evaluated = True
    if step in (Step.PREPARE, Step.ALL):
        evaluated = _prepare(settings, gha)
    elif step in (Step.SESSION, Step.GRADE):
        evaluated = _evaluated(settings, gha)
    if evaluated and step in (Step.SESSION, Step.ALL):
        with _agent_environment(settings, gha):
            for index in _session_numbers(settings):
                _session(settings, gha, index)
    cards: list[Scorecard] = []
    if evaluated and step in (Step.GRADE, Step.ALL):
        cards = [_grade(settings, gha, summary=step is Step.GRADE)]
    if step in (Step.PUBLISH, Step.ALL):
        cards = _publish(settings, gha)
    if not cards:
        return 0
    return 1 if any_fails(cards, settings.fail_on) else 0


def _session_numbers(settings: Settings) -> list[int]:
    if settings.step is Step.SESSION:
        assert settings.session is not None
        return [settings.session]
    return list(range(1, runs.load_run(_run_dir(settings)).tier.sessions + 1))


def _run_dir(settings: Settings) -> Path:
    if settings.run_dir is None:
        raise UsageError("no run directory: give run_dir, or tier and seed")
    return settings.run_dir


def _shown(settings: Settings, path: Path) -> str:
    """`path` relative to the workspace when inside it: the runner mounts the workspace at
    another path than the container sees, so only relative paths mean the same to later steps."""
    try:
        return str(path.resolve().relative_to(settings.workspace.resolve()))
    except ValueError:
        return str(path)


def _prepare(settings: Settings, gha: GitHubActions) -> bool:
    """Prepare the run; False (and a `not-evaluated.json`) when a key it needs is missing."""
    assert settings.tier is not None and settings.agent is not None
    run_dir = _run_dir(settings)
    tier = load_tier(settings.tier)
    gha.set_output("run_dir", _shown(settings, run_dir))
    gha.set_output("sessions", str(tier.sessions))
    missing = [name for name in settings.pass_env if not os.environ.get(name)]
    if missing:
        reason = (
            f"no API key: {', '.join(missing)} is empty (a pull request from a fork or by "
            "Dependabot gets no secrets)"
        )
        run_dir.mkdir(parents=True, exist_ok=True)
        skipped = {"tier_id": tier.id, "seed": settings.seed, "agent": settings.agent}
        (run_dir / NOT_EVALUATED).write_text(json.dumps({**skipped, "reason": reason}) + "\n")
        gha.notice(f"{tier.id}, seed {settings.seed} is not evaluated: {reason}")
        gha.set_output("evaluated", "false")
        return False
    if settings.ledger is not None:
        os.environ["SPECSNAP_LEDGER"] = str(settings.ledger)  # the one place asked: specsnap.stage
    with gha.group(f"Prepare {settings.tier}, seed {settings.seed}, agent {settings.agent}"):
        runs.prepare_run(
            settings.tier,
            settings.seed,
            settings.agent,
            run_dir,
            agent_options=dict(settings.agent_options),
            pass_env=list(settings.pass_env),
            time_limit_s=settings.time_limit_s,
            stage=settings.stage,
            check_agent=not settings.agent_install,  # its adapter may come with its install
        )
    gha.set_output("evaluated", "true")
    return True


def _evaluated(settings: Settings, gha: GitHubActions) -> bool:
    """False when prepare found the run could not be evaluated (nothing to do, no failure)."""
    marker = _run_dir(settings) / NOT_EVALUATED
    if not marker.is_file():
        return True
    gha.log(f"not evaluated: {json.loads(marker.read_text())['reason']}")
    gha.set_output("evaluated", "false")
    return False


@contextmanager
def _agent_environment(settings: Settings, gha: GitHubActions) -> Iterator[None]:
    """The agent's sessions get its own environment on PATH (never SpecSnap's venv): the one
    `agent_install` installs as the run's agent account, with the adapters it registers."""
    if not settings.agent_install:
        os.environ["PATH"] = agent_path(None)
        yield
        return
    named = runs.load_run(_run_dir(settings)).agent_account
    account = account_named(named) if named else current_user()
    if account is None:
        raise InfrastructureError(f"the run's agent account {named!r} does not exist here")
    prefix = Path(tempfile.mkdtemp(prefix="specsnap-agent-"))
    try:
        with gha.group(f"Install the agent (as {account.name}, into {prefix})"):
            env = install_agent(settings.agent_install, settings.workspace, account, prefix)
        os.environ["PATH"] = agent_path(env)
        use_agent_environment(RemoteEnvironment(env))
        yield
    finally:
        use_agent_environment(None)
        shutil.rmtree(prefix, ignore_errors=True)


def _session(settings: Settings, gha: GitHubActions, index: int) -> None:
    with gha.group(f"Session {index}"):
        record: dict[str, Any] = runs.run_session(_run_dir(settings), index)
    session = Session.from_record(record)
    gha.log(render_session(session))
    gha.set_output("session", str(index))
    gha.set_output("cutoff_fired", str(session.cutoff.fired).lower())
    gha.set_output("session_status", session.exit.status)


def _grade(settings: Settings, gha: GitHubActions, *, summary: bool) -> Scorecard:
    run_dir = _run_dir(settings)
    with gha.group("Grade"):
        card = runs.grade_run(run_dir)
    _score_outputs(gha, [card])
    gha.set_output("scorecard_path", _shown(settings, run_dir / "scorecard.json"))
    _write_badge(settings, gha, [card], run_dir)
    if summary:
        gha.add_summary(render_markdown(card))
    return card


def _submit(settings: Settings, gha: GitHubActions) -> None:
    """The graded run as one leaderboard submission (docs/leaderboard.md)."""
    with gha.group("Submission bundle"):
        bundle = create_submission(_run_dir(settings))
    gha.set_output("bundle", _shown(settings, bundle))


def _publish(settings: Settings, gha: GitHubActions) -> list[Scorecard]:
    paths, skipped = _inputs(settings)
    if settings.verify:
        paths, refused = _verified(paths, gha)
        skipped += refused
    cards = [load_scorecard(path) for path in paths]
    target = target_from_event(
        settings.event_name,
        settings.event,
        settings.repository,
        settings.sha,
        pull_request=settings.pull_request,
        commit=settings.commit,
    )
    options = PublishOptions(
        comment_mode=settings.comment_mode,
        comment_key=settings.comment_key,
        check_run=settings.check_run,
        check_name=settings.check_name,
        fail_on=settings.fail_on,
        run_url=settings.run_url,
        note=VERIFIED_NOTE if settings.verify else None,
    )
    github = connect(settings.api) if settings.api else None
    result = publish_scorecards(cards, target, options, github, skipped)
    _publish_outputs(gha, result)
    if result.degraded:
        _degrade(gha, result, cards)
    for warning in result.warnings:
        gha.warning(warning)
    gha.set_output("evaluated", "true" if cards else "false")
    if not cards:
        return cards
    _score_outputs(gha, cards)
    gha.set_output("scorecard_path", "\n".join(_shown(settings, p) for p in paths))
    badge_dir = settings.badge_dir or (settings.workspace / ".specsnap")
    _write_badge(settings, gha, cards, badge_dir if len(cards) > 1 else paths[0].parent)
    return cards


def _inputs(settings: Settings) -> tuple[list[Path], list[NotEvaluated]]:
    """The scorecards the `scorecards` globs match, and the runs not evaluated: a
    `not-evaluated.json` where a glob naming scorecard.json would have found one."""
    found: list[Path] = []
    skipped: list[NotEvaluated] = []
    for pattern in settings.scorecards:
        base = pattern if Path(pattern).is_absolute() else str(settings.workspace / pattern)
        found += sorted(Path(p) for p in glob.glob(base, recursive=True) if Path(p).is_file())
        if Path(base).name == "scorecard.json":
            for marker in sorted(
                glob.glob(str(Path(base).with_name(NOT_EVALUATED)), recursive=True)
            ):
                skipped.append(_not_evaluated(Path(marker)))
    unique = list(dict.fromkeys(found))
    if not unique and not skipped:
        raise UsageError(f"no scorecard matched {', '.join(settings.scorecards)}")
    return unique, skipped


def _not_evaluated(path: Path) -> NotEvaluated:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return NotEvaluated(
            str(data["tier_id"]), int(data["seed"]), str(data["agent"]), str(data["reason"])
        )
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise UsageError(f"{path} is not a readable {NOT_EVALUATED}: {exc}") from None


def _verified(paths: Sequence[Path], gha: GitHubActions) -> tuple[list[Path], list[NotEvaluated]]:
    """The scorecards whose run (the directory beside each) rebuilds them exactly; the others
    are reported as not evaluated, with what did not match."""
    kept: list[Path] = []
    refused: list[NotEvaluated] = []
    for path in paths:
        card = load_scorecard(path)
        with gha.group(f"Verify {card.label} (regrade its final commit)"):
            problem = _verification_problem(path, card)
        if problem is None:
            kept.append(path)
            continue
        gha.warning(f"{card.label}: not published, its scorecard did not verify: {problem}")
        reason = f"its scorecard did not verify ({problem})"
        refused.append(NotEvaluated(card.tier_id, card.seed, card.agent.name, reason))
    return kept, refused


def _verification_problem(path: Path, card: Scorecard) -> str | None:
    """Why `path` does not verify against its run, or None when it does."""
    try:
        # The run is data from elsewhere: verify regrades with the tier installed here, never
        # with a tier directory the run names.
        verification = verify_scorecard(path, path.parent)
    except SpecSnapError as exc:
        return str(exc)
    failed = [f"{c.name}: {c.detail}" for c in verification.checks if not c.ok]
    return "; ".join(failed) or None


def _publish_outputs(gha: GitHubActions, result: PublishResult) -> None:
    gha.add_summary(result.summary)
    gha.set_output("comment_url", result.comment_url or "")
    gha.set_output("check_run_url", "\n".join(result.check_run_urls))
    gha.set_output("published", "false" if result.degraded else "true")


def _degrade(gha: GitHubActions, result: PublishResult, cards: Sequence[Scorecard]) -> None:
    """Without a check run, the findings go out as workflow annotations (capped by the runner)."""
    gha.warning(
        f"SpecSnap could not publish to GitHub: {result.degraded}. The scorecards are in the job "
        "summary; upload them as an artifact to publish from a `workflow_run` workflow.",
        title="SpecSnap: published to the job summary only",
    )
    for card in cards:
        for note in annotations_for(card):
            level = "error" if note.level == "failure" else "warning"
            gha.annotate(
                level,
                f"{card.label}: {note.message}",
                title=note.title,
                file=note.path,
                line=note.line,
            )


def _score_outputs(gha: GitHubActions, cards: Sequence[Scorecard]) -> None:
    """One card: its scores. Several: mean retentions and TES, `pass` only if all passed."""
    count = len(cards)
    raw = sum(c.scores.raw_retention for c in cards) / count
    net = sum(c.scores.net_retention for c in cards) / count
    tes_values = [c.scores.tes for c in cards]
    known = [t for t in tes_values if t is not None]
    tes = f"{sum(known) / count:.4f}" if len(known) == count else ""
    gha.set_output("raw_retention", f"{raw:.4f}")
    gha.set_output("net_retention", f"{net:.4f}")
    gha.set_output("tes", tes)
    gha.set_output("pass", "true" if all(c.passed for c in cards) else "false")


def _badge_files(cards: Sequence[Scorecard]) -> dict[str, bytes]:
    """specsnap-badge.json (a shields.io endpoint document) and specsnap-badge.svg."""
    shown = badge.badge_for(cards)
    document = json.dumps(badge.endpoint_json(shown), indent=2) + "\n"
    return {
        "specsnap-badge.json": document.encode(),
        "specsnap-badge.svg": badge.render_svg(shown).encode(),
    }


def _write_badge(
    settings: Settings, gha: GitHubActions, cards: Sequence[Scorecard], directory: Path
) -> None:
    target = settings.badge_dir or directory
    target.mkdir(parents=True, exist_ok=True)
    for name, content in _badge_files(cards).items():
        (target / name).write_bytes(content)
    gha.set_output("badge_path", _shown(settings, target / "specsnap-badge.json"))


def _badge(settings: Settings, gha: GitHubActions) -> int:
    """Publish the scorecards' badge to `badge_branch` of the repository, for shields.io."""
    paths, _ = _inputs(settings)
    if not paths:
        raise UsageError("no scorecard to make a badge of: every run was not evaluated")
    cards = [load_scorecard(path) for path in paths]
    remote = f"{settings.server_url.rstrip('/')}/{settings.repository}.git"
    token = settings.api.token if settings.api else None
    with gha.group(f"Publish the badge to the branch {settings.badge_branch}"):
        commit = publish_files(
            _badge_files(cards),
            remote,
            settings.badge_branch,
            f"SpecSnap badge for {settings.sha[:12] or 'this run'}",
            token,
        )
    gha.set_output("badge_commit", commit)
    gha.set_output("badge_path", f"{settings.badge_branch}:specsnap-badge.json")
    _score_outputs(gha, cards)
    return 0


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
