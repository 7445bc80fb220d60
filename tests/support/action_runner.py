"""The Action's entrypoint run as the runner runs it, against the loopback GitHub API.

`run_action` starts `python entrypoint/__main__.py` in a subprocess with the environment a Docker
container action gets: every input as `INPUT_*` (action.yml defaults filled in), `GITHUB_*`
variables, an event payload file, and `GITHUB_OUTPUT` / `GITHUB_STEP_SUMMARY` files. The
entrypoint talks to the loopback server through the real PyGithub, with production retry and
pacing settings.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from tests.support.github_server import GitHubServer

ROOT = Path(__file__).resolve().parents[2]
AGENT_REPO = ROOT / "tests" / "fixtures" / "agent-repo"
REPO, HEAD, MERGE = "octo/agent", "a" * 40, "9" * 40
TOKEN = "ghs_rw"
MARKER = "<!-- specsnap:comment:default -->"


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


def pull_request_event(head_repo: str = REPO) -> dict[str, Any]:
    return {
        "action": "synchronize",
        "number": 12,
        "pull_request": {
            "number": 12,
            "head": {"sha": HEAD, "ref": "feature", "repo": {"full_name": head_repo}},
            "base": {"sha": "b" * 40, "ref": "main", "repo": {"full_name": REPO}},
        },
        "repository": {"full_name": REPO},
    }


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
