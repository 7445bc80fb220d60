"""`/specsnap review` on GitHub: post the review packet, record ratings, report the result.

The run a pull request's review is about lives on the bot's side, in its reviews directory
(`specsnap-bot serve --reviews-dir`, SPECSNAP_BOT_REVIEWS_DIR): ROOT/OWNER/REPO/NUMBER is the run
directory (or a link to it) of the evaluation to review, placed there by whoever operates the
bot (the packet is posted only when asked, never after every run: reviews cost people's time).

Only users with write permission review (their ratings become part of the record). A rating
comment is recorded in the run's reviews section with its comment id, author and time, signed
with the App's own key (specsnap.review.signing), then
deleted from the pull request, so that the first reviewer's ratings are not on the page before
the second has rated; the reply acknowledges it without any number. Once two reviewers have
rated, the reply carries the combined result and asks for a reconciliation where two ratings are
more than one point apart. A redelivered comment (its id already recorded) is not recorded twice.
"""

from __future__ import annotations

from pathlib import Path

from github import GithubException
from github.Repository import Repository

from specsnap.bot import replies
from specsnap.bot.command import ReviewCommand
from specsnap.bot.respond import (
    WRITE_PERMISSIONS,
    BotResult,
    CommentEvent,
    Outcome,
    collaborator_permission,
    reply_to,
)
from specsnap.publish.github import api_call
from specsnap.review.rules import RuleError, Submission
from specsnap.review.signing import Signer
from specsnap.reviewdesk.desk import current, record, standing
from specsnap.reviewdesk.packet import build_packet


class ReviewDesk:
    """Where each pull request's run to review is: ROOT/OWNER/REPO/NUMBER."""

    def __init__(self, root: Path) -> None:
        self.root = root

    def run_dir(self, repository: str, number: int) -> Path | None:
        owner, _, name = repository.partition("/")
        if not owner or not name or "/" in name or owner in (".", "..") or name in (".", ".."):
            return None
        found = self.root / owner / name / str(number)
        return found if (found / "scorecard.json").is_file() else None


def handle_review(
    repo: Repository,
    event: CommentEvent,
    command: ReviewCommand,
    desk: ReviewDesk | None,
    sign: Signer | None = None,
) -> BotResult:
    """Answer one `/specsnap review` command; a rating is recorded signed by `sign` (the App's
    key, specsnap.review.signing)."""
    permission = collaborator_permission(repo, event.author)
    if permission not in WRITE_PERMISSIONS:
        return BotResult(
            Outcome.REFUSED,
            reply_url=reply_to(repo, event, replies.review_refused(event.author, permission)),
        )
    run_dir = desk.run_dir(event.repository, event.number) if desk else None
    if run_dir is None:
        body = replies.no_run_to_review(event.author, event.number)
        return BotResult(Outcome.INVALID, reply_url=reply_to(repo, event, body, "confused"))
    if command.asks_packet:
        packet = build_packet(run_dir)
        body = (
            packet.markdown
            + "\n### Where the review stands\n\n"
            + standing(current(run_dir).review)
        )
        return BotResult(Outcome.REVIEWED, reply_url=reply_to(repo, event, body))
    if any(e["source"].get("comment_id") == event.comment_id for e in current(run_dir).entries):
        return BotResult(Outcome.IGNORED)  # a redelivery of a comment already recorded
    source = {
        "via": "github",
        "repository": event.repository,
        "pull_request": event.number,
        "comment_id": event.comment_id,
        "author": event.author,
        "at": event.created_at.isoformat() if event.created_at else None,
    }
    try:
        submission = Submission(event.author, command.kind, command.scores)
        section = record(run_dir, submission, source, sign)
    except RuleError as exc:
        body = replies.rating_refused(event.author, str(exc))
        return BotResult(Outcome.INVALID, reply_url=reply_to(repo, event, body, "confused"))
    _hide(repo, event)
    review = section.review
    body = replies.rating_recorded(event.author, command.kind, standing(review), section.head)
    return BotResult(Outcome.REVIEWED, reply_url=reply_to(repo, event, body))


def _hide(repo: Repository, event: CommentEvent) -> None:
    """Delete the rating comment (recorded already); one already gone is fine."""
    with api_call(f"removing rating comment {event.comment_id}", writing=True):
        try:
            repo.get_issue(event.number).get_comment(event.comment_id).delete()
        except GithubException as exc:
            if exc.status != 404:
                raise
