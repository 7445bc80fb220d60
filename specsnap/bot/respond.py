"""Acting on a `/specsnap` comment: permission check, reaction, reply, and starting the run.

Shared by the `issue_comment` workflow (the run to link is the workflow run itself) and the
GitHub App webhook receiver (which starts the evaluation workflow by `workflow_dispatch`). The
commit evaluated is the pull request's head when the comment was written, as the front end pins
it (`Pinner`; the App's from its record of `pull_request` deliveries, specsnap.bot.heads).
Only users whose repository permission is `admin` or `write` (maintainers report `write`) may
start an evaluation: it runs the pull request's code with the repository's secrets.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime
from enum import Enum
from typing import Any

from github import GithubException
from github.Repository import Repository

from specsnap.bot import replies
from specsnap.bot.command import (
    CommandError,
    HelpCommand,
    ReviewCommand,
    RunCommand,
    parse_command,
)
from specsnap.bot.heads import HeadMoved
from specsnap.publish.github import api_call

WRITE_PERMISSIONS = frozenset({"admin", "write"})


@dataclass(frozen=True)
class CommentEvent:
    """An `issue_comment` delivery, reduced to what the bot needs."""

    repository: str
    number: int
    is_pull_request: bool
    comment_id: int
    author: str
    author_type: str
    body: str
    created_at: datetime | None = None  # when the comment was written (the payload's word)


class Outcome(Enum):
    IGNORED = "ignored"  # no command, or not a new comment, or written by a bot
    INVALID = "invalid"  # a malformed command (the reply explains)
    HELP = "help"
    REFUSED = "refused"  # the author may not start evaluations
    STARTED = "started"
    REVIEWED = "reviewed"  # a review packet posted, or a rating recorded (specsnap.bot.reviews)


@dataclass(frozen=True)
class BotResult:
    outcome: Outcome
    command: RunCommand | None = None
    head_sha: str | None = None
    reply_url: str | None = None
    run_url: str | None = None


#: Starts the evaluation of `head_sha` for `command` on pull request `number`; returns the URL
#: of the run to link in the reply (None when it is not known).
Starter = Callable[[RunCommand, int, str], "str | None"]
#: The commit the comment is about (raises HeadMoved when that cannot be told).
Pinner = Callable[[Repository, "CommentEvent"], str]
#: Acts on a `/specsnap review` command (specsnap.bot.reviews.handle_review, with its desk).
Reviewer = Callable[[Repository, "CommentEvent", ReviewCommand], "BotResult"]


def comment_event(payload: Mapping[str, Any]) -> CommentEvent | None:
    """The event, when `payload` is a newly created issue comment by a known author; else None.

    GitHub's webhook schema lets `comment.user` be null (a deleted account): such a comment has
    no one whose permission could be checked or who could be answered, so it is ignored.
    """
    if payload.get("action") != "created" or "comment" not in payload or "issue" not in payload:
        return None
    comment, issue = payload["comment"], payload["issue"]
    user = comment.get("user")
    if not user or not user.get("login"):
        return None
    written = comment.get("created_at")
    return CommentEvent(
        repository=payload.get("repository", {}).get("full_name", ""),
        number=int(issue["number"]),
        is_pull_request=bool(issue.get("pull_request")),
        comment_id=int(comment["id"]),
        author=str(user["login"]),
        author_type=str(user.get("type", "User")),
        body=str(comment.get("body") or ""),
        created_at=(
            datetime.fromisoformat(written.replace("Z", "+00:00"))
            if isinstance(written, str)
            else None
        ),
    )


def current_head(repo: Repository, event: CommentEvent) -> str:
    """The pull request's head commit now (the workflow front end's pin: its job starts within
    seconds of the comment)."""
    with api_call(f"reading pull request #{event.number}", writing=False):
        return str(repo.get_pull(event.number).head.sha)


def handle_comment(
    repo: Repository,
    event: CommentEvent,
    start: Starter,
    prefix: str = "/specsnap",
    pin: Pinner = current_head,
    review: Reviewer | None = None,
) -> BotResult:
    """Parse, check permission, pin the commit, react, start and reply; each step's result in
    BotResult. A review command goes to `review` (without one, the reply says reviews are not
    set up here)."""
    if event.author_type == "Bot":
        return BotResult(Outcome.IGNORED)  # never answer bots, our own replies included
    try:
        command = parse_command(event.body, prefix)
    except CommandError as exc:
        reply = reply_to(repo, event, replies.invalid(event.author, str(exc)), "confused")
        return BotResult(Outcome.INVALID, reply_url=reply)
    if command is None:
        return BotResult(Outcome.IGNORED)
    if isinstance(command, HelpCommand):
        return BotResult(Outcome.HELP, reply_url=reply_to(repo, event, replies.usage(event.author)))
    if not event.is_pull_request:
        reply = reply_to(repo, event, replies.not_a_pull_request(event.author), "confused")
        return BotResult(Outcome.INVALID, reply_url=reply)
    if isinstance(command, ReviewCommand):
        if review is None:
            reply = reply_to(repo, event, replies.reviews_not_set_up(event.author), "confused")
            return BotResult(Outcome.INVALID, reply_url=reply)
        return review(repo, event, command)

    permission = collaborator_permission(repo, event.author)
    if permission not in WRITE_PERMISSIONS:
        reply = reply_to(repo, event, replies.refused(event.author, permission))
        return BotResult(Outcome.REFUSED, command, reply_url=reply)

    try:
        head_sha = pin(repo, event)
    except HeadMoved as exc:
        reply = reply_to(repo, event, replies.head_moved(event.author, exc.now), "confused")
        return BotResult(Outcome.INVALID, command, reply_url=reply)
    _react(repo, event, "rocket")
    run_url = start(command, event.number, head_sha)
    reply = reply_to(repo, event, replies.started(event.author, command, head_sha, run_url))
    return BotResult(Outcome.STARTED, command, head_sha, reply, run_url)


def collaborator_permission(repo: Repository, login: str) -> str:
    """`admin`, `write`, `read` or `none` (a user GitHub does not know has `none`)."""
    with api_call(f"reading {login}'s permission", writing=False):
        try:
            return repo.get_collaborator_permission(login)
        except GithubException as exc:
            if exc.status == 404:
                return "none"
            raise


def _react(repo: Repository, event: CommentEvent, reaction: str) -> None:
    with api_call(f"reacting to comment {event.comment_id}", writing=True):
        repo.get_issue(event.number).get_comment(event.comment_id).create_reaction(reaction)


def reply_to(repo: Repository, event: CommentEvent, body: str, reaction: str | None = None) -> str:
    if reaction:
        _react(repo, event, reaction)
    with api_call(f"replying on #{event.number}", writing=True):
        return str(repo.get_issue(event.number).create_comment(body).html_url)
