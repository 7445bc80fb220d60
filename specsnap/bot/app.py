"""The GitHub App side of the bot: authenticate as an installation and start evaluations.

A queued `issue_comment` delivery (specsnap.bot.service) is answered through the installation's
token (permission check, reaction, reply); an accepted command starts the agent repository's
evaluation workflow with `workflow_dispatch` (inputs `pull_request`, `commit`, `tier`, `seed`)
on its default branch, and the reply links the run GitHub created. The commit is the pull
request's head when the comment was written (specsnap.bot.heads). An installation token lives an
hour: it is minted once and reused until `TOKEN_MARGIN` before it expires, and dropped as soon as
GitHub rejects it (401). A failure of the API work raises, so that the delivery may be
redelivered (specsnap.bot.service).
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

from github import Auth, GithubException, GithubIntegration
from github.Repository import Repository
from github.WorkflowRun import WorkflowRun

from specsnap.bot.command import RunCommand
from specsnap.bot.heads import HeadLog, pin_head
from specsnap.bot.respond import (
    CommentEvent,
    Reviewer,
    comment_event,
    current_head,
    handle_comment,
)
from specsnap.bot.reviews import ReviewDesk, handle_review
from specsnap.bot.webhook import Delivery
from specsnap.errors import SpecSnapError
from specsnap.publish.github import ApiConfig, api_call, connect, get_repository
from specsnap.review.signing import app_signer


@dataclass(frozen=True)
class AppConfig:
    app_id: int
    private_key: str  # PEM
    webhook_secret: bytes
    api_url: str
    workflow: str = "specsnap.yml"  # the agent repository's evaluation workflow file
    prefix: str = "/specsnap"
    reviews_dir: Path | None = None  # the runs under review (specsnap.bot.reviews); None: off


#: A token is not used this close to its expiry: a delivery's API work must not outlive it.
TOKEN_MARGIN = timedelta(minutes=5)
Clock = Callable[[], datetime]
#: Mints a new token for an installation: (token, when it expires).
Minter = Callable[[int], tuple[str, datetime]]


class InstallationTokens:
    """Each installation's token, minted on first use and reused until `margin` before its
    `expires_at`; thread-safe. The tokens are never logged or shown in a message."""

    def __init__(self, mint: Minter, clock: Clock, margin: timedelta = TOKEN_MARGIN) -> None:
        self._mint = mint
        self._clock = clock
        self._margin = margin
        self._tokens: dict[int, tuple[str, datetime]] = {}
        self._lock = threading.Lock()

    def get(self, installation_id: int) -> str:
        """A token with more than `margin` left, minted when the cached one has not."""
        with self._lock:
            cached = self._tokens.get(installation_id)
            if cached is None or cached[1] - self._margin <= self._clock():
                cached = self._mint(installation_id)
                self._tokens[installation_id] = cached
            return cached[0]

    def drop(self, installation_id: int, token: str) -> None:
        """Forget `token` (GitHub rejected it), unless another one has replaced it already."""
        with self._lock:
            cached = self._tokens.get(installation_id)
            if cached is not None and cached[0] == token:
                del self._tokens[installation_id]


class AppHandler:
    """Does the API work for one queued delivery (a `Worker` of specsnap.bot.service)."""

    def __init__(
        self, config: AppConfig, heads: HeadLog, *, clock: Clock = lambda: datetime.now(UTC)
    ) -> None:
        self.config = config
        self.heads = heads
        self._integration = GithubIntegration(
            auth=Auth.AppAuth(config.app_id, config.private_key), base_url=config.api_url
        )
        self._tokens = InstallationTokens(self._mint_token, clock)
        self._review: Reviewer | None = (
            functools.partial(
                handle_review,
                desk=ReviewDesk(config.reviews_dir),
                sign=app_signer(config.private_key, config.app_id),
            )
            if config.reviews_dir is not None
            else None
        )

    def __call__(self, delivery: Delivery) -> str:
        event = comment_event(delivery.payload) if delivery.event == "issue_comment" else None
        installation = (delivery.payload.get("installation") or {}).get("id")
        if event is None or installation is None:
            return f"ignored {delivery.event}"
        installation_id = int(installation)
        token = self._tokens.get(installation_id)
        try:
            repo = get_repository(connect(ApiConfig(self.config.api_url, token)), event.repository)
            result = handle_comment(
                repo,
                event,
                lambda cmd, pr, sha: self._dispatch(repo, cmd, pr, sha),
                self.config.prefix,
                pin=self._pin,
                review=self._review,
            )
        except SpecSnapError as exc:
            if _rejected_credentials(exc):
                self._tokens.drop(installation_id, token)
            raise
        return result.outcome.value

    def _pin(self, repo: Repository, event: CommentEvent) -> str:
        return pin_head(
            self.heads,
            event.repository,
            event.number,
            event.created_at,
            lambda: current_head(repo, event),
        )

    def _mint_token(self, installation_id: int) -> tuple[str, datetime]:
        with api_call(f"authenticating as installation {installation_id}", writing=False):
            granted = self._integration.get_access_token(installation_id)
        # Without an expiry, the token is used for this delivery only.
        return granted.token, granted.expires_at or datetime.min.replace(tzinfo=UTC)

    def _dispatch(self, repo: Repository, command: RunCommand, number: int, sha: str) -> str | None:
        inputs = {
            "pull_request": str(number),
            "commit": sha,
            "tier": command.tier,
            "seed": str(command.seed),
            # only when asked: a workflow that predates handoff modes declares no such input
            **({"handoff": command.handoff} if command.handoff != "fresh" else {}),
        }
        with api_call(f"starting workflow {self.config.workflow}", writing=True):
            run = repo.get_workflow(self.config.workflow).create_dispatch(
                repo.default_branch, inputs, throw=True, return_run_details=True
            )
        # GHES 3.17-3.19 ignore return_run_details: 204, no body, and PyGithub hands back True.
        return str(run.html_url) if isinstance(run, WorkflowRun) else None


def _rejected_credentials(error: BaseException) -> bool:
    """Whether GitHub answered 401 somewhere in the chain of causes of `error`."""
    cause: BaseException | None = error
    while cause is not None:
        if isinstance(cause, GithubException) and cause.status == 401:
            return True
        cause = cause.__cause__
    return False
