"""The Action's pipeline: `main(settings, gha)` runs the chosen step and returns the exit code.

Steps map onto the library: prepare → `specsnap.runs.prepare_run`, session → `run_session`,
grade → `grade_run`, publish → `specsnap.publish.pipeline.publish_scorecards`, bot →
`specsnap.bot.respond.handle_comment`, submit → `specsnap.submission.bundle.create_submission`;
`all` runs prepare, every session, grade and publish.
Exit codes (STYLE.md): 0 ran and passed, 1 ran and did not pass (per `fail_on`), 2 bad input,
3 infrastructure failure.
"""

from __future__ import annotations

import glob
import json
import subprocess
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from entrypoint.gha import GitHubActions
from entrypoint.settings import Settings, Step
from specsnap import runs
from specsnap.bot.respond import BotResult, Outcome, comment_event, handle_comment
from specsnap.errors import InfrastructureError, SpecSnapError, UsageError
from specsnap.publish.github import connect, get_repository
from specsnap.publish.pipeline import PublishOptions, PublishResult, publish_scorecards
from specsnap.publish.policy import any_fails
from specsnap.publish.target import target_from_event
from specsnap.render import badge
from specsnap.render.checks import annotations_for
from specsnap.render.markdown import render_markdown
from specsnap.render.terminal import render_session
from specsnap.scorecard.io import load_scorecard
from specsnap.scorecard.model import Scorecard, Session
from specsnap.submission.bundle import create_submission


def main(settings: Settings, gha: GitHubActions) -> int:
    """Run `settings.step`; expected failures become an error annotation and their exit code."""
    try:
        return _run(settings, gha)
    except SpecSnapError as exc:
        gha.error(str(exc), title=f"SpecSnap {settings.step.value} step")
        return exc.exit_code
    finally:
        gha.close_annotations()


def _run(settings: Settings, gha: GitHubActions) -> int:
    step = settings.step
    if step is Step.BOT:
        return _bot(settings, gha)
    if step is Step.SUBMIT:
        _submit(settings, gha)
        return 0
    if step in (Step.PREPARE, Step.ALL):
        _prepare(settings, gha)
    if step is Step.SESSION:
        assert settings.session is not None
        _install_agent(settings, gha)
        _session(settings, gha, settings.session)
    if step is Step.ALL:
        _install_agent(settings, gha)
        for index in range(1, runs.load_run(_run_dir(settings)).tier.sessions + 1):
            _session(settings, gha, index)
    cards: list[Scorecard] = []
    if step in (Step.GRADE, Step.ALL):
        cards = [_grade(settings, gha, summary=step is Step.GRADE)]
    if step in (Step.PUBLISH, Step.ALL):
        cards = _publish(settings, gha)
    if not cards:
        return 0
    return 1 if any_fails(cards, settings.fail_on) else 0


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


def _prepare(settings: Settings, gha: GitHubActions) -> None:
    assert settings.tier is not None and settings.agent is not None
    with gha.group(f"Prepare {settings.tier}, seed {settings.seed}, agent {settings.agent}"):
        run = runs.prepare_run(
            settings.tier,
            settings.seed,
            settings.agent,
            _run_dir(settings),
            agent_options=dict(settings.agent_options),
            pass_env=list(settings.pass_env),
            time_limit_s=settings.time_limit_s,
        )
    gha.set_output("run_dir", _shown(settings, run.run_dir))
    gha.set_output("sessions", str(run.tier.sessions))


def _install_agent(settings: Settings, gha: GitHubActions) -> None:
    """Run `agent_install` (e.g. `npm install -g @openai/codex`) before sessions, as root."""
    if not settings.agent_install:
        return
    with gha.group("Install the agent"):
        done = subprocess.run(
            ["bash", "-euo", "pipefail", "-c", settings.agent_install],
            cwd=settings.workspace,
            check=False,
        )
    if done.returncode != 0:
        raise InfrastructureError(
            f"agent_install exited with {done.returncode}; its output is in the group above"
        )


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
    paths = _scorecard_paths(settings)
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
    )
    github = connect(settings.api) if settings.api else None
    result = publish_scorecards(cards, target, options, github)
    _publish_outputs(gha, result)
    if result.degraded:
        _degrade(gha, result, cards)
    for warning in result.warnings:
        gha.warning(warning)
    _score_outputs(gha, cards)
    gha.set_output("scorecard_path", "\n".join(_shown(settings, p) for p in paths))
    badge_dir = settings.badge_dir or (settings.workspace / ".specsnap")
    _write_badge(settings, gha, cards, badge_dir if len(cards) > 1 else paths[0].parent)
    return cards


def _scorecard_paths(settings: Settings) -> list[Path]:
    found: list[Path] = []
    for pattern in settings.scorecards:
        base = pattern if Path(pattern).is_absolute() else str(settings.workspace / pattern)
        found += sorted(Path(p) for p in glob.glob(base, recursive=True) if Path(p).is_file())
    unique = list(dict.fromkeys(found))
    if not unique:
        raise UsageError(f"no scorecard matched {', '.join(settings.scorecards)}")
    return unique


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


def _write_badge(
    settings: Settings, gha: GitHubActions, cards: Sequence[Scorecard], directory: Path
) -> None:
    target = settings.badge_dir or directory
    target.mkdir(parents=True, exist_ok=True)
    shown = badge.badge_for(cards)
    json_path = target / "specsnap-badge.json"
    json_path.write_text(json.dumps(badge.endpoint_json(shown), indent=2) + "\n", encoding="utf-8")
    (target / "specsnap-badge.svg").write_text(badge.render_svg(shown), encoding="utf-8")
    gha.set_output("badge_path", _shown(settings, json_path))


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
