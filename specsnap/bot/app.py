"""The GitHub App side of the bot: authenticate as an installation and start evaluations.

A queued `issue_comment` delivery (specsnap.bot.service) is answered through the installation's
token (permission check, reaction, reply); an accepted command starts the agent repository's
evaluation workflow with `workflow_dispatch` (inputs `pull_request`, `commit`, `tier`, `seed`)
on its default branch, and the reply links the run GitHub created. The commit is the pull
request's head when the comment was written (specsnap.bot.heads).
"""

from __future__ import annotations

from dataclasses import dataclass

from github import Auth, Github, GithubIntegration
from github.Repository import Repository
from github.WorkflowRun import WorkflowRun

from specsnap.bot.command import RunCommand
from specsnap.bot.heads import HeadLog, pin_head
from specsnap.bot.respond import CommentEvent, comment_event, current_head, handle_comment
from specsnap.bot.webhook import Delivery
from specsnap.errors import SpecSnapError
from specsnap.publish.github import ApiConfig, api_call, connect, get_repository


@dataclass(frozen=True)
class AppConfig:
    app_id: int
    private_key: str  # PEM
    webhook_secret: bytes
    api_url: str
    workflow: str = "specsnap.yml"  # the agent repository's evaluation workflow file
    prefix: str = "/specsnap"


class AppHandler:
    """Does the API work for one queued delivery (a `Worker` of specsnap.bot.service)."""

    def __init__(self, config: AppConfig, heads: HeadLog) -> None:
        self.config = config
        self.heads = heads
        self._integration = GithubIntegration(
            auth=Auth.AppAuth(config.app_id, config.private_key), base_url=config.api_url
        )

    def __call__(self, delivery: Delivery) -> str:
        event = comment_event(delivery.payload) if delivery.event == "issue_comment" else None
        installation = (delivery.payload.get("installation") or {}).get("id")
        if event is None or installation is None:
            return f"ignored {delivery.event}"
        try:
            repo = get_repository(self._installation_client(int(installation)), event.repository)
            result = handle_comment(
                repo,
                event,
                lambda cmd, pr, sha: self._dispatch(repo, cmd, pr, sha),
                self.config.prefix,
                pin=self._pin,
            )
        except SpecSnapError as exc:
            return f"could not handle the comment: {exc}"
        return result.outcome.value

    def _pin(self, repo: Repository, event: CommentEvent) -> str:
        return pin_head(
            self.heads,
            event.repository,
            event.number,
            event.created_at,
            lambda: current_head(repo, event),
        )

    def _installation_client(self, installation_id: int) -> Github:
        with api_call(f"authenticating as installation {installation_id}", writing=False):
            token = self._integration.get_access_token(installation_id).token
        return connect(ApiConfig(self.config.api_url, token))

    def _dispatch(self, repo: Repository, command: RunCommand, number: int, sha: str) -> str | None:
        inputs = {
            "pull_request": str(number),
            "commit": sha,
            "tier": command.tier,
            "seed": str(command.seed),
        }
        with api_call(f"starting workflow {self.config.workflow}", writing=True):
            run = repo.get_workflow(self.config.workflow).create_dispatch(
                repo.default_branch, inputs, throw=True, return_run_details=True
            )
        # GHES 3.17-3.19 ignore return_run_details: 204, no body, and PyGithub hands back True.
        return str(run.html_url) if isinstance(run, WorkflowRun) else None
