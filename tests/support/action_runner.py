"""The Action's entrypoint run as the runner runs it, against the loopback GitHub API.

`run_action` starts `python entrypoint/__main__.py` in a subprocess with the environment a Docker
container action gets: every input as `INPUT_*` (action.yml defaults filled in), `GITHUB_*`
variables, an event payload file, and `GITHUB_OUTPUT` / `GITHUB_STEP_SUMMARY` files. The
entrypoint talks to the loopback server through the real PyGithub, with production retry and
pacing settings.

The event payloads are GitHub's: each builder here takes its delivery from bot_events.py (every
field GitHub's webhook schema requires, from the loopback GitHub's own resources), drops what
only a GitHub App's delivery carries, and checks it against the schema of its event and action
(`@octokit/openapi-webhooks`, webhook_contract.py) before the Action is handed it.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import yaml

from tests.support import bot_events
from tests.support.github_server import GitHubServer

ROOT = Path(__file__).resolve().parents[2]
AGENT_REPO = ROOT / "tests" / "fixtures" / "agent-repo"
REPO, HEAD, MERGE = "octo/agent", "a" * 40, "9" * 40
TOKEN = "ghs_rw"
MARKER = "<!-- specsnap:comment:default -->"
#: The base commit of the pull requests (tests/support/github_server.py `add_pull`): `main`'s.
BASE = "b" * 40
#: The evaluation workflow a `workflow_run` event names (the fork recipe's first part).
EVALUATE_WORKFLOW = {"id": 9, "name": "SpecSnap", "path": ".github/workflows/fork-evaluate.yml"}

Json = dict[str, Any]


@dataclass
class ActionRun:
    code: int
    stdout: str
    stderr: str
    outputs: dict[str, str]
    summary: str


@contextlib.contextmanager
def github_api(lifetime: float = 120) -> Iterator[GitHubServer]:
    """The loopback GitHub API (a GitHub Enterprise-style base URL) with the repository, a
    read-write and a read-only token, and pull request 12 at HEAD."""
    with GitHubServer(prefix="/api/v3", lifetime=lifetime) as gh:
        gh.add_repo(REPO)
        gh.add_token(TOKEN, write=True)
        gh.add_token("ghs_ro", write=False)
        gh.add_pull(REPO, 12, HEAD)
        yield gh


def action_defaults() -> dict[str, str]:
    inputs = yaml.safe_load((ROOT / "action.yml").read_text())["inputs"]
    return {name: str(spec.get("default", "")) for name, spec in inputs.items()}


def pull_request_event(head_repo: str = REPO, github: GitHubServer | None = None) -> Json:
    """The `pull_request` event (`synchronize`: HEAD was pushed) of pull request 12 from
    `head_repo` (a fork when it is not REPO). Built from `github`'s pull request 12, which must
    come from `head_repo` (`GitHubServer.add_pull`), so the event's URLs are that server's;
    without `github`, from a loopback GitHub of its own holding that pull request."""
    if github is None:
        return json.loads(_detached_pull_request_event(head_repo))
    coming_from = github.repos[REPO].pulls[12]["head"]["repo"]["full_name"]
    assert coming_from == head_repo, f"the server's pull request 12 comes from {coming_from}"
    payload = bot_events.pull_request_event(github, REPO, 12, HEAD, stamp())
    return for_the_action("pull_request", payload)


@functools.cache
def _detached_pull_request_event(head_repo: str) -> str:
    with GitHubServer(lifetime=30) as github:
        github.add_repo(REPO)
        github.add_pull(REPO, 12, HEAD, fork="" if head_repo == REPO else head_repo)
        return json.dumps(pull_request_event(head_repo, github))


def comment_event(github: GitHubServer, body: str, login: str = "dev", number: int = 12) -> Json:
    """The `issue_comment` event (`created`) of a comment `login` writes now on pull request
    `number`: the comment is posted on `github` first, as GitHub stores it before the event."""
    posted = github.add_comment(REPO, number, body, login=login)
    payload = bot_events.comment_event(github, REPO, number, posted, stamp())
    return for_the_action("issue_comment", payload)


def push_event(github: GitHubServer, branch: str = "main", before: str = BASE) -> Json:
    """The `push` event of `branch` moving from `before` to its head on `github` (push that
    commit first: `GitHubServer.add_commit`)."""
    payload = bot_events.push_event(github, REPO, branch, before, stamp())
    return for_the_action("push", payload)


def workflow_run_event(github: GitHubServer, number: int) -> Json:
    """The `workflow_run` event (`completed`) of the evaluation workflow that pull request
    `number`'s head triggered (a fork's pull request is not listed in it, as on GitHub)."""
    payload = bot_events.workflow_run_event(github, REPO, number, EVALUATE_WORKFLOW, stamp())
    return for_the_action("workflow_run", payload)


def for_the_action(event: str, payload: Json) -> Json:
    """`payload` as a workflow's event file has it: a GitHub App's delivery less `installation`
    (the workflow's token is no App's), still allowed by GitHub's schema for `event`."""
    payload.pop("installation", None)
    return bot_events.checked(event, payload)


def stamp() -> str:
    """Now, as GitHub writes times in events (ISO 8601, UTC, seconds)."""
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def run_action(
    workspace: Path,
    github: GitHubServer,
    *,
    event_name: str = "pull_request",
    event: dict[str, Any] | None = None,
    token: str = TOKEN,
    timeout: float = 120,
    **inputs: str,
) -> ActionRun:
    """Run the entrypoint in `workspace` against `github` with `inputs` (action.yml's defaults
    for the rest), handed `event` as `event_name` (by default pull request 12's `synchronize`:
    `pull_request_event()`)."""
    workspace.mkdir(parents=True, exist_ok=True)
    files = workspace.parent / f"runner-{len(list(workspace.parent.glob('runner-*')))}"
    files.mkdir()
    (files / "event.json").write_text(json.dumps(event or pull_request_event()))
    values = action_defaults() | inputs
    values["github_token"] = values["github_token"].replace("${{ github.token }}", token)
    env = {
        "PATH": os.environ["PATH"],
        "HOME": str(files),
        "GITHUB_ACTIONS": "true",
        "GITHUB_WORKSPACE": str(workspace),
        "GITHUB_REPOSITORY": REPO,
        "GITHUB_SHA": MERGE,
        "GITHUB_EVENT_NAME": event_name,
        "GITHUB_EVENT_PATH": str(files / "event.json"),
        "GITHUB_OUTPUT": str(files / "output"),
        "GITHUB_STEP_SUMMARY": str(files / "summary"),
        "GITHUB_SERVER_URL": "https://github.example",
        "GITHUB_API_URL": github.api_url,
        "GITHUB_RUN_ID": "4242",
        **{f"INPUT_{name.upper()}": value for name, value in values.items()},
    }
    done = subprocess.run(
        [sys.executable, str(ROOT / "entrypoint" / "__main__.py")],
        cwd=workspace,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    output = files / "output"
    summary = files / "summary"
    return ActionRun(
        done.returncode,
        done.stdout,
        done.stderr,
        parse_outputs(output.read_text() if output.exists() else ""),
        summary.read_text() if summary.exists() else "",
    )


def parse_outputs(text: str) -> dict[str, str]:
    outputs: dict[str, str] = {}
    lines = iter(text.splitlines())
    for line in lines:
        heredoc = re.fullmatch(r"([a-z_]+)<<(\S+)", line)
        if heredoc:
            name, delimiter = heredoc.groups()
            value: list[str] = []
            for part in lines:
                if part == delimiter:
                    break
                value.append(part)
            outputs[name] = "\n".join(value)
        else:
            name, _, value_text = line.partition("=")
            outputs[name] = value_text
    return outputs


def ours(github: GitHubServer) -> list[dict[str, Any]]:
    return [c for c in github.repos[REPO].comments.values() if MARKER in c["body"]]
