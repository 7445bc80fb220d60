"""`publish_scorecards`: from graded scorecards to a check run, a sticky comment and a summary.

Publishing never turns an agent's result into a failed job by itself: when the token may not
write (fork pull requests, a read-only or missing token) it degrades to the job summary and a
warning. Only an API that keeps failing after retries is an infrastructure failure.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import Enum

from github import Github
from github.Repository import Repository

from specsnap.publish.github import (
    CommentResult,
    PublishError,
    WriteDenied,
    create_check_run,
    find_base_snapshots,
    find_pull_request,
    get_repository,
    pull_request_info,
    token_login,
    upsert_comment,
)
from specsnap.publish.policy import FailOn, any_fails, conclusion
from specsnap.publish.target import Target
from specsnap.render.checks import check_name, render_check_run
from specsnap.render.comment import (
    NotEvaluated,
    RenderContext,
    comment_marker,
    render_comment,
    render_summary,
)
from specsnap.scorecard.delta import Delta, compare
from specsnap.scorecard.model import Scorecard


class CommentMode(Enum):
    """`always`: create or update the sticky comment; `failures`: create it only when a run
    fails the policy; `changes`: create it only when a result changed against the base branch
    (or has no base scores to compare with); `off`. In `failures` and `changes` mode an existing
    comment is still updated, so it never goes stale."""

    ALWAYS = "always"
    FAILURES = "failures"
    CHANGES = "changes"
    OFF = "off"


@dataclass(frozen=True)
class PublishOptions:
    comment_mode: CommentMode = CommentMode.ALWAYS
    comment_key: str = "default"
    check_run: bool = True
    check_name: str = "SpecSnap"
    #: Card key -> the id of its evaluation's in-progress check run, to complete instead of a
    #: new one (specsnap.publish.progress).
    in_progress: Mapping[str, int] = field(default_factory=dict)
    fail_on: FailOn = FailOn.NOT_PASSED
    run_url: str | None = None
    note: str | None = None  # shown at the top of what is published (e.g. how it was verified)


@dataclass(frozen=True)
class PublishResult:
    summary: str  # Markdown for the job summary
    comment_url: str | None = None
    comment_created: bool = False
    check_run_urls: tuple[str, ...] = ()
    degraded: str | None = None  # why nothing (more) was written to GitHub
    warnings: tuple[str, ...] = field(default_factory=tuple)


def publish_scorecards(
    cards: Sequence[Scorecard],
    target: Target,
    options: PublishOptions,
    github: Github | None,
    not_evaluated: Sequence[NotEvaluated] = (),
) -> PublishResult:
    """Publish `cards` to `target`: a check run each, and the sticky comment on a pull request
    (which lists the `not_evaluated` runs as such).

    `github` is None when there is no token: everything degrades to the job summary.
    """
    degraded = target.read_only_reason
    if github is None:
        degraded = "no GitHub token was given, so nothing was published to GitHub"
    repo = get_repository(github, target.repository) if github else None
    if repo is not None and target.head_label:
        number = find_pull_request(repo, target.head_label, target.head_sha)
        target = replace(target, pull_request=number, head_label=None, base_ref="")
    if repo is not None and target.needs_lookup and target.pull_request is not None:
        info = pull_request_info(repo, target.pull_request)
        target = replace(target, head_sha=target.head_sha or info.head_sha, base_ref=info.base_ref)
    deltas, warnings = _deltas(repo, target, cards)
    context = RenderContext(
        options.run_url, target.head_sha, target.base_ref or None, options.note,
        tuple(not_evaluated),
    )  # fmt: skip

    written = _Written()
    if repo is not None and degraded is None:
        try:
            _write(repo, cards, deltas, target, options, context, written)
        except WriteDenied as exc:
            degraded = str(exc)
    if degraded is not None:
        notice = f"Not published to GitHub: {degraded}."
        context = replace(context, notice=" ".join(filter(None, (notice, options.note))))
    return PublishResult(
        summary=render_summary(cards, deltas, context),
        comment_url=written.comment.url if written.comment else None,
        comment_created=written.comment.created if written.comment else False,
        check_run_urls=tuple(written.check_runs),
        degraded=degraded,
        warnings=tuple(warnings),
    )


@dataclass
class _Written:
    """What reached GitHub so far (kept when a later write is denied)."""

    check_runs: list[str] = field(default_factory=list)
    comment: CommentResult | None = None


def _deltas(
    repo: Repository | None, target: Target, cards: Sequence[Scorecard]
) -> tuple[dict[str, Delta | None], list[str]]:
    """Each card's delta against the base branch; a base that cannot be read only warns."""
    if repo is None or not target.base_ref:
        return {}, []
    try:
        bases = find_base_snapshots(repo, target.base_ref, [c.key for c in cards])
    except PublishError as exc:
        return {}, [f"no deltas against {target.base_ref}: {exc}"]
    return {c.key: compare(c, bases.get(c.key)) for c in cards}, []


def _write(
    repo: Repository,
    cards: Sequence[Scorecard],
    deltas: Mapping[str, Delta | None],
    target: Target,
    options: PublishOptions,
    context: RenderContext,
    written: _Written,
) -> None:
    if options.check_run:
        for card in cards:
            output = render_check_run(
                card,
                deltas.get(card.key),
                context,
                check_name(options.check_name, card.label),
                conclusion(card, options.fail_on),
            )
            written.check_runs.append(
                create_check_run(
                    repo,
                    target.head_sha,
                    output,
                    options.run_url,
                    options.in_progress.get(card.key),
                )
            )
    if target.pull_request is None or options.comment_mode is CommentMode.OFF:
        return
    body = render_comment(cards, deltas, context, options.comment_key)
    marker = comment_marker(options.comment_key)
    create = wants_new_comment(options, cards, deltas)
    author = token_login(repo)  # only our own comment is ours to edit
    written.comment = upsert_comment(
        repo, target.pull_request, marker, body, author=author, create=create
    )


def wants_new_comment(
    options: PublishOptions, cards: Sequence[Scorecard], deltas: Mapping[str, Delta | None]
) -> bool:
    """Whether the comment mode asks for a comment where there is none yet."""
    if options.comment_mode is CommentMode.FAILURES:
        return any_fails(cards, options.fail_on)
    if options.comment_mode is CommentMode.CHANGES:
        return any(
            (delta := deltas.get(card.key)) is None or delta.result_changed for card in cards
        )
    return options.comment_mode is CommentMode.ALWAYS
