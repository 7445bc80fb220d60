"""The Action's publishing steps: the evaluation's check run while it runs, the scorecards to the
pull request (comment, check run, outputs, job summary; verified first with `verify`), and the
badge, to files and to a branch."""

from __future__ import annotations

import glob
import json
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from entrypoint.gha import GitHubActions
from entrypoint.settings import Settings
from specsnap import rundir
from specsnap.errors import SpecSnapError, UsageError
from specsnap.publish.branch import publish_files
from specsnap.publish.github import (
    PublishError,
    connect,
    get_repository,
    pull_request_info,
    token_login,
    upsert_comment,
)
from specsnap.publish.pipeline import CommentMode, PublishOptions, PublishResult, publish_scorecards
from specsnap.publish.progress import load_progress, report_progress, start_progress
from specsnap.publish.target import Target, target_from_event
from specsnap.render import badge
from specsnap.render.announce import render_evaluating
from specsnap.render.checks import annotations_for, check_name
from specsnap.render.comment import NotEvaluated, comment_marker
from specsnap.scorecard.io import load_scorecard
from specsnap.scorecard.model import Scorecard, cell_label
from specsnap.scorecard.scoring import effective_tokens
from specsnap.verify import verify_scorecard

#: Beside a scorecard, or instead of one: a run that was not evaluated, and why.
NOT_EVALUATED = "not-evaluated.json"
VERIFIED_NOTE = (
    "Verified before publishing: each run's final commit was regraded and its scorecard rebuilt "
    "from the run's records. The session records (cutoffs, tokens) are as the evaluating "
    "workflow reported them."
)


def _target(settings: Settings) -> Target:
    return target_from_event(
        settings.event_name,
        settings.event,
        settings.repository,
        settings.sha,
        pull_request=settings.pull_request,
        commit=settings.commit,
    )


def start_feedback(settings: Settings, gha: GitHubActions, run_dir: Path) -> None:
    """The evaluation's check run, `in_progress` from prepare on (docs/action.md): where it
    cannot be written (no token, a read-only one) the evaluation goes on without it."""
    target = _target(settings)
    if not settings.check_run or settings.api is None or not target.head_sha:
        return
    if target.read_only_reason:
        return
    run = rundir.load_run(run_dir)
    name = check_name(settings.check_name, cell_label(run.tier_id, run.seed, run.stage))
    try:
        repo = get_repository(connect(settings.api), settings.repository)
        start_progress(repo, run_dir, target.head_sha, name, run.agent, settings.run_url)
    except PublishError as exc:
        gha.warning(f"no in-progress check run: {exc}")


def session_feedback(settings: Settings, gha: GitHubActions, run_dir: Path, index: int) -> None:
    """Session `index` ended: its line in the in-progress check run (how it ended, its time,
    the tokens of every session so far)."""
    if settings.api is None or load_progress(run_dir) is None:
        return
    run = rundir.load_run(run_dir)
    sessions = [r.session for r in rundir.recorded_sessions(run)]
    (session,) = [s for s in sessions if s.index == index]
    ended = "cut off" if session.cutoff.fired else session.exit.status
    total = effective_tokens([s.tokens for s in sessions])
    so_far = "unknown" if total is None else f"{total:,.0f}"
    line = f"Session {index}: {ended} after {session.duration_s:.0f} s; tokens so far: {so_far}."
    try:
        repo = get_repository(connect(settings.api), settings.repository)
        report_progress(repo, run_dir, line, settings.run_url)
    except PublishError as exc:
        gha.warning(f"the in-progress check run was not updated: {exc}")


def announce(settings: Settings, gha: GitHubActions) -> int:
    """The sticky comment says the evaluation has started (comment modes other than `off`;
    only `always` creates it where there is none): the step before the matrix. Where it cannot
    be written (a fork's read-only token) the evaluation goes on; this step never fails it."""
    target = _target(settings)
    if settings.comment_mode is CommentMode.OFF or settings.api is None:
        return 0
    if target.pull_request is None or target.read_only_reason:
        gha.log("no sticky comment to announce the evaluation in")
        return 0
    number, marker = target.pull_request, comment_marker(settings.comment_key)
    try:
        repo = get_repository(connect(settings.api), settings.repository)
        if target.needs_lookup:
            head = pull_request_info(repo, number).head_sha
            target = replace(target, head_sha=target.head_sha or head)
        upsert_comment(
            repo,
            number,
            marker,
            lambda body: render_evaluating(body, marker, target.head_sha, settings.run_url),
            author=token_login(repo),
            create=settings.comment_mode is CommentMode.ALWAYS,
        )
    except PublishError as exc:
        gha.warning(f"the sticky comment does not say the evaluation started: {exc}")
    return 0


def publish(settings: Settings, gha: GitHubActions) -> list[Scorecard]:
    paths, skipped = _inputs(settings)
    if settings.verify:
        paths, refused = _verified(paths, gha)
        skipped += refused
    cards = [load_scorecard(path) for path in paths]
    target = _target(settings)
    in_progress = {
        card.key: progress.check_run_id
        for card, path in zip(cards, paths, strict=True)
        if (progress := load_progress(path.parent)) is not None
    }
    options = PublishOptions(
        comment_mode=settings.comment_mode,
        comment_key=settings.comment_key,
        check_run=settings.check_run,
        check_name=settings.check_name,
        in_progress=in_progress,
        fail_on=settings.fail_on,
        run_url=settings.run_url,
        note=VERIFIED_NOTE if settings.verify else None,
    )
    github = connect(settings.api) if settings.api else None
    result = publish_scorecards(cards, target, options, github, skipped)
    _publish_outputs(gha, result, summary=settings.job_summary)
    if result.degraded:
        _degrade(gha, result, cards)
    for warning in result.warnings:
        gha.warning(warning)
    gha.set_output("evaluated", "true" if cards else "false")
    if not cards:
        return cards
    score_outputs(gha, cards)
    gha.set_output("scorecard_path", "\n".join(settings.shown(p) for p in paths))
    badge_dir = settings.badge_dir or (settings.workspace / ".specsnap")
    write_badge(settings, gha, cards, badge_dir if len(cards) > 1 else paths[0].parent)
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


def _publish_outputs(gha: GitHubActions, result: PublishResult, *, summary: bool) -> None:
    if summary or result.degraded:  # degraded: the summary is the only place left
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


def score_outputs(gha: GitHubActions, cards: Sequence[Scorecard]) -> None:
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


def write_badge(
    settings: Settings, gha: GitHubActions, cards: Sequence[Scorecard], directory: Path
) -> None:
    target = settings.badge_dir or directory
    target.mkdir(parents=True, exist_ok=True)
    for name, content in _badge_files(cards).items():
        (target / name).write_bytes(content)
    gha.set_output("badge_path", settings.shown(target / "specsnap-badge.json"))


def publish_badge(settings: Settings, gha: GitHubActions) -> int:
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
    score_outputs(gha, cards)
    return 0
