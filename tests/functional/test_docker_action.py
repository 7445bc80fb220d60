"""The Action's Docker image: it builds, keeps the tiers from the agent, and runs a whole tier.

The test run uses the local Docker engine, starting `dockerd` itself when none answers (as root).
No container registry is needed: the base image is built by scripts/build-base-image.sh when the
engine lacks it. Each job step runs in a fresh container with the mounts, working directory and
environment a GitHub runner gives a Docker container action, on the host network so that the
loopback GitHub API answers it.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.functional.test_action import (
    HEAD,
    MERGE,
    REPO,
    TOKEN,
    action_defaults,
    ours,
    parse_outputs,
    pull_request_event,
)
from tests.support.github_server import GitHubServer

pytestmark = [pytest.mark.docker, pytest.mark.slow, pytest.mark.xdist_group("docker")]

ROOT = Path(__file__).resolve().parents[2]
LOCAL_BASE_IMAGE = "specsnap-base:bookworm"  # scripts/build-base-image.sh makes it
BASE_IMAGE = os.environ.get("SPECSNAP_BASE_IMAGE", LOCAL_BASE_IMAGE)
IMAGE = "specsnap-action:test"


def docker_answers() -> bool:
    if shutil.which("docker") is None:
        return False
    done = subprocess.run(["docker", "info"], capture_output=True, check=False, timeout=60)
    return done.returncode == 0


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """A Docker engine: the running one, or a `dockerd` this test run starts and stops."""
    if docker_answers():
        yield
        return
    if shutil.which("docker") is None or shutil.which("dockerd") is None:
        pytest.skip(
            "no Docker engine: docker/dockerd are not installed (apt-get install docker.io)"
        )
    if os.geteuid() != 0:
        pytest.skip("no Docker engine answers, and starting dockerd needs root")
    log = tmp_path_factory.mktemp("dockerd") / "dockerd.log"
    with log.open("wb") as out:
        daemon = subprocess.Popen(["dockerd"], stdout=out, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 60
        while not docker_answers():
            if daemon.poll() is not None or time.monotonic() > deadline:
                pytest.skip(f"dockerd could not be started here: {log.read_text()[-2000:]}")
            time.sleep(1)
        yield
    finally:
        daemon.terminate()
        try:
            daemon.wait(timeout=30)
        except subprocess.TimeoutExpired:
            daemon.kill()
            daemon.wait()


@pytest.fixture(scope="module")
def image(engine: None) -> str:
    """The Action's image, FROM the local base image (built first when missing)."""
    have_base = subprocess.run(
        ["docker", "image", "inspect", BASE_IMAGE], capture_output=True, check=False
    )
    if have_base.returncode != 0 and BASE_IMAGE == LOCAL_BASE_IMAGE:
        # Any other base (debian:bookworm-slim where a registry answers) `docker build` pulls.
        subprocess.run(
            ["bash", str(ROOT / "scripts" / "build-base-image.sh"), BASE_IMAGE],
            check=True,
            timeout=1200,
        )
    build = subprocess.run(
        [
            "docker",
            "build",
            "--network",
            "host",
            "--build-arg",
            f"BASE_IMAGE={BASE_IMAGE}",
            "-t",
            IMAGE,
            str(ROOT),
        ],
        capture_output=True,
        text=True,
        check=False,
        timeout=1200,
    )
    assert build.returncode == 0, build.stdout[-4000:] + build.stderr[-4000:]
    return IMAGE


def as_agent(image: str, command: str) -> subprocess.CompletedProcess[str]:
    """`command` run in the image as the unprivileged account agents run as."""
    return subprocess.run(
        [
            "docker",
            "run",
            "--rm",
            "--network",
            "none",
            "--entrypoint",
            "runuser",
            image,
            "-u",
            "dev0",
            "--",
            "bash",
            "-c",
            command,
        ],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )


def test_the_agent_account_cannot_read_the_tiers(image: str) -> None:
    assert as_agent(image, "id -un").stdout.strip() == "dev0"  # an account of the agent pool
    for secret in (
        "ls /opt/specsnap/tiers",
        "cat /opt/specsnap/tiers/tier-2/tier.yaml",
        "ls /opt/specsnap/tiers/tier-2/grader",
        "ls /opt/specsnap/tiers/tier-2/solution",
    ):
        assert as_agent(image, secret).returncode != 0, secret
    tools = as_agent(image, "python3 --version && git --version && node --version && npm --version")
    assert tools.returncode == 0, tools.stderr


def run_step(
    image: str, runner: Path, github: GitHubServer, step_id: str, **inputs: str
) -> tuple[int, str, dict[str, str]]:
    """One job step: a fresh container, mounted and configured as a runner does it."""
    workspace, home, workflow, commands = (
        runner / name for name in ("workspace", "home", "workflow", "file_commands")
    )
    for directory in (workspace, home, workflow, commands):
        directory.mkdir(parents=True, exist_ok=True)
    (workflow / "event.json").write_text(json.dumps(pull_request_event()))
    values = action_defaults() | inputs
    values["github_token"] = values["github_token"].replace("${{ github.token }}", TOKEN)
    env: dict[str, Any] = {
        "HOME": "/github/home",
        "CI": "true",
        "GITHUB_ACTIONS": "true",
        "GITHUB_WORKSPACE": "/github/workspace",
        "GITHUB_REPOSITORY": REPO,
        "GITHUB_SHA": MERGE,
        "GITHUB_EVENT_NAME": "pull_request",
        "GITHUB_EVENT_PATH": "/github/workflow/event.json",
        "GITHUB_OUTPUT": f"/github/file_commands/set_output_{step_id}",
        "GITHUB_STEP_SUMMARY": f"/github/file_commands/step_summary_{step_id}",
        "GITHUB_SERVER_URL": "https://github.example",
        "GITHUB_API_URL": github.api_url,
        "GITHUB_RUN_ID": "4242",
        **{f"INPUT_{name.upper()}": value for name, value in values.items()},
    }
    command = ["docker", "run", "--rm", "--network", "host", "--workdir", "/github/workspace"]
    for key, value in env.items():
        command += ["-e", f"{key}={value}"]
    for source, target in (
        (home, "home"),
        (workflow, "workflow"),
        (commands, "file_commands"),
        (workspace, "workspace"),
    ):
        command += ["-v", f"{source}:/github/{target}"]
    done = subprocess.run(
        [*command, image], capture_output=True, text=True, check=False, timeout=1200
    )
    output = commands / f"set_output_{step_id}"
    outputs = parse_outputs(output.read_text() if output.exists() else "")
    return done.returncode, done.stdout + done.stderr, outputs


def test_a_whole_tier_runs_as_job_steps_in_containers(image: str, tmp_path: Path) -> None:
    runner = tmp_path / "runner"
    common = {"tier": "tier-2", "seed": "5", "agent": "notetaker"}
    with GitHubServer(prefix="/api/v3", lifetime=900) as github:
        github.add_repo(REPO)
        github.add_token(TOKEN, write=True)
        github.add_pull(REPO, 12, HEAD)
        code, log, out = run_step(image, runner, github, "prepare", step="prepare", **common)
        assert code == 0, log
        assert out["run_dir"] == ".specsnap/runs/tier-2-seed-5"  # relative to the workspace
        for index in range(1, int(out["sessions"]) + 1):
            code, log, out = run_step(
                image, runner, github, f"session{index}", step="session", session=str(index),
                agent_install="command -v node", **common,
            )  # fmt: skip
            assert code == 0, log
            assert out["session"] == str(index)
        code, log, _ = run_step(
            image, runner, github, "grade", step="grade", fail_on="never", **common
        )
        assert code == 0, log
        run_dir = runner / "workspace" / ".specsnap" / "runs" / "tier-2-seed-5"
        scorecard = json.loads((run_dir / "scorecard.json").read_text())
        assert scorecard["grading"]["isolation"] == "separate-user"  # sessions ran as `specsnap`
        assert scorecard["grading"]["run_problem"] is None, scorecard["grading"]
        assert scorecard["official"] is True, scorecard["unofficial_reasons"]
        assert scorecard["scores"]["pass"] is True, scorecard["scores"]
        code, log, out = run_step(image, runner, github, "publish", step="publish", **common)
        assert code == 0, log
        assert out["pass"] == "true" and out["published"] == "true"
        (comment,) = ours(github)
        assert "| tier-2, seed 5 | 100.0% | 100.0% |" in comment["body"]
        (run,) = github.repos[REPO].check_runs.values()
        assert run["conclusion"] == "success" and run["head_sha"] == HEAD
