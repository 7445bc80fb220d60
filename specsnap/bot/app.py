"""The GitHub App side of the bot: authenticate as an installation and start evaluations.

A verified `issue_comment` delivery is answered through the installation's token (permission
check, reaction, reply); an accepted command starts the agent repository's evaluation workflow
with `workflow_dispatch` (inputs `pull_request`, `commit`, `tier`, `seed`) on its default branch,
and the reply links the run GitHub created.
"""

from __future__ import annotations

from dataclasses import dataclass

from github import Auth, Github, GithubIntegration
from github.Repository import Repository

from specsnap.bot.command import RunCommand
from specsnap.bot.respond import Outcome, comment_event, handle_comment
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
    """A webhook `Handler` (see specsnap.bot.webhook) for the SpecSnap GitHub App."""

    def __init__(self, config: AppConfig) -> None:
        self.config = config
        self._integration = GithubIntegration(
            auth=Auth.AppAuth(config.app_id, config.private_key), base_url=config.api_url
        )

    def __call__(self, delivery: Delivery) -> tuple[int, str]:
        if delivery.event == "ping":
            return 200, "pong"
        event = comment_event(delivery.payload) if delivery.event == "issue_comment" else None
        installation = (delivery.payload.get("installation") or {}).get("id")
        if event is None or installation is None:
            return 202, f"ignored {delivery.event}"
        try:
            repo = get_repository(self._installation_client(int(installation)), event.repository)
            result = handle_comment(
                repo,
                event,
                lambda cmd, pr, sha: self._dispatch(repo, cmd, pr, sha),
                self.config.prefix,
            )
        except SpecSnapError as exc:
            return 500, f"could not handle the comment: {exc}"
        return (202 if result.outcome is Outcome.IGNORED else 200), result.outcome.value

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
        return str(run.html_url) if run else None
