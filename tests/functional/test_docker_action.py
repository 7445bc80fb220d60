"""The Action's Docker image, built from a cold cache, playing the documented workflows as a
GitHub runner plays them (tests/support/workflow_player.py): the workspace and HOME owned by
uid 1001, GitHub's own steps (checkout, artifacts, `run:`, the cleanup) on the host as 1001, each
action step a fresh root container of the image.

The test run uses the local Docker engine, starting `dockerd` itself when none answers (as root).
No container registry is needed: the base image is built by scripts/build-base-image.sh when the
engine lacks it (SPECSNAP_BASE_IMAGE=pinned builds FROM the Dockerfile's own pinned base). The
image is built once per test run, from a cold cache, and shared by every test here;
SPECSNAP_ACTION_IMAGE names an image built already instead (to iterate on the tests, never in
CI). The containers use the host network so that the loopback GitHub API answers them. Each
play prints its steps' times.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.functional.test_action import (
    AGENT_REPO,
    HEAD,
    MERGE,
    REPO,
    TOKEN,
    action_defaults,
    ours,
    pull_request_event,
)
from tests.support.github_server import GitHubServer
from tests.support.workflow_player import RUNNER_UID, Job, Runner

pytestmark = [pytest.mark.docker, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]
LOCAL_BASE_IMAGE = "specsnap-base:bookworm-slim"  # scripts/build-base-image.sh makes it
BASE_IMAGE = os.environ.get("SPECSNAP_BASE_IMAGE", LOCAL_BASE_IMAGE)
IMAGE = "specsnap-action:test"
PREBUILT = os.environ.get("SPECSNAP_ACTION_IMAGE", "")


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
    """The Action's image, built from a cold cache (`--no-cache`), FROM the local base image
    (built first when missing) or, with SPECSNAP_BASE_IMAGE=pinned, the Dockerfile's own."""
    if PREBUILT:
        return PREBUILT
    have_base = subprocess.run(
        ["docker", "image", "inspect", BASE_IMAGE], capture_output=True, check=False
    )
    if have_base.returncode != 0 and BASE_IMAGE == LOCAL_BASE_IMAGE:
        subprocess.run(
            ["bash", str(ROOT / "scripts" / "build-base-image.sh"), BASE_IMAGE],
            check=True,
            timeout=1200,
        )
    base = [] if BASE_IMAGE == "pinned" else ["--build-arg", f"BASE_IMAGE={BASE_IMAGE}"]
    started = time.monotonic()
    build = subprocess.run(
        [
            "docker",
            "build",
            "--no-cache",
            "--network",
            "host",
            *base,
            "--target",
            "action",
            "-t",
            IMAGE,
            str(ROOT),
        ],  # fmt: skip
        capture_output=True,
        text=True,
        check=False,
        timeout=1200,
    )
    assert build.returncode == 0, build.stdout[-4000:] + build.stderr[-4000:]
    print(f"cold build of the action image: {time.monotonic() - started:.0f}s")
    return IMAGE


def as_agent(image: str, command: str) -> subprocess.CompletedProcess[str]:
    """`command` run in the image as an unprivileged account agents run as."""
    return subprocess.run(
        ["docker", "run", "--rm", "--network", "none", "--entrypoint", "runuser", image,
         "-u", "dev0", "--", "bash", "-c", command],
        capture_output=True, text=True, check=False, timeout=120,
    )  # fmt: skip


def test_the_image_hides_the_tiers_and_gives_agents_node_22(image: str) -> None:
    assert as_agent(image, "id -un").stdout.strip() == "dev0"
    for secret in (
        "ls /opt/specsnap/tiers",
        "cat /opt/specsnap/tiers/tier-2/tier.yaml",
        "ls /opt/specsnap/tiers/tier-2/grader",
        "ls /opt/specsnap/tiers/tier-2/solution",
    ):
        assert as_agent(image, secret).returncode != 0, secret
    tools = as_agent(image, "node --version && npm --version && git --version && echo $PATH")
    assert tools.returncode == 0, tools.stderr
    node, npm, _, path = tools.stdout.split("\n")[:4]
    assert int(node.removeprefix("v").split(".")[0]) >= 22 and npm.startswith("10.")
    assert "/opt/specsnap/venv" not in path  # the image's PATH is what sessions inherit


@pytest.fixture
def runner(image: str, tmp_path: Path) -> Runner:
    """A runner whose jobs check out the agent's repository (a pull request of it)."""
    root = tmp_path / "runner"
    root.mkdir()
    root.chmod(0o755)
    checkout = tmp_path / "checkout"
    shutil.copytree(AGENT_REPO, checkout)
    subprocess.run(["chmod", "-R", "a+rX", str(checkout)], check=True)
    (root / "artifacts").mkdir()
    os.chown(root / "artifacts", RUNNER_UID, RUNNER_UID)
    return Runner(
        root=root,
        image=image,
        action="specsnap/specsnap",
        workflows=ROOT / ".github" / "workflows",
        checkout=checkout,
        env={
            "GITHUB_REPOSITORY": REPO,
            "GITHUB_SHA": MERGE,
            "GITHUB_SERVER_URL": "https://github.example",
            "GITHUB_RUN_ID": "4242",
        },
        action_defaults=action_defaults(),
    )


def played(runner: Runner) -> str:
    """Every job's log, with each step's outcome and time (printed, so `-s` shows the times)."""
    log = "\n".join(line for job in runner.jobs for line in job.logs)
    for job in runner.jobs:
        times = ", ".join(
            f"{key} {step.seconds:.0f}s" for key, step in job.steps.items() if step.code is not None
        )
        print(f"play {job.name}: {job.result}; {times}")
    return log


def outcomes(job: Job) -> list[tuple[str, int | None]]:
    return [(step.outcome, step.code) for step in job.steps.values()]


def test_the_quick_start_evaluates_the_pull_requests_own_agent(runner: Runner) -> None:
    """docs/action.md's quick start, literally: own-agent.yml calling evaluate.yml, the agent
    `pip install .`-ed from the pull request's checkout, its adapter found afterwards."""
    workflow = ROOT / "docs" / "examples" / "workflows" / "own-agent.yml"
    with GitHubServer(prefix="/api/v3", lifetime=1500) as github:
        github.add_repo(REPO)
        github.add_token(TOKEN, write=True)
        github.add_pull(REPO, 12, HEAD)
        runner.env = {**runner.env, "GITHUB_API_URL": github.api_url}
        jobs = runner.play(
            workflow, "pull_request", pull_request_event(), TOKEN,
            {"ANTHROPIC_API_KEY": "sk-ant-test-not-used-by-a-model-free-agent"},
        )  # fmt: skip
        log = played(runner)
        evaluate, aggregate = runner.jobs
        ran, skipped, failed = ("success", 0), ("skipped", None), ("failure", 1)
        # tinyagent keeps notes and solves nothing: tier-2 is not passed, which fails the check
        # run's step with exit 1 (the agent's result, `fail_on: not_passed`), never with 3.
        assert outcomes(evaluate) == [
            ran, ran, ran, ran, skipped, skipped, ran, failed, ran,
        ], log  # fmt: skip
        assert outcomes(aggregate) == [ran, failed, ran], log
        assert jobs["specsnap"].result == "failure"
        assert "Install the agent (as dev" in evaluate.steps["step2"].log, log
        assert aggregate.steps["publish"].outputs["evaluated"] == "true"
        assert aggregate.steps["publish"].outputs["pass"] == "false"
        comments = ours(github)
        assert len(comments) == 1, log + "\n".join(
            f"{r.method} {r.path} {getattr(r, 'status', '')}" for r in github.requests
        )
        comment = comments[0]
        assert "tinyagent" in comment["body"] and "| tier-2, seed 1 |" in comment["body"]
        (check,) = github.repos[REPO].check_runs.values()
        assert check["head_sha"] == HEAD and check["name"] == "SpecSnap (tier-2, seed 1)"
        assert check["conclusion"] == "failure"
        assert all("cleanup as uid 1001: exit 0" in job.logs[-1] for job in runner.jobs), log
        card = json.loads(
            (runner.artifacts / "specsnap-tier-2-seed-1" / "scorecard.json").read_text()
        )
        assert card["agent"]["name"] == "tinyagent" and card["grading"]["run_problem"] is None
        assert [s["exit"]["status"] for s in card["sessions"]] == ["cutoff", "completed"]
        assert (runner.artifacts / "specsnap-badge" / "specsnap-badge.json").is_file()


def test_the_fork_recipe_publishes_only_what_it_regraded(runner: Runner) -> None:
    examples = ROOT / "docs" / "examples" / "workflows"
    fork_head = "e" * 40
    with GitHubServer(prefix="/api/v3", lifetime=1500) as github:
        github.add_repo(REPO)
        github.add_token(TOKEN, write=True)
        github.add_token("ghs_ro", write=False)
        github.add_pull(REPO, 12, HEAD)
        github.add_pull(REPO, 21, fork_head, fork="fork/agent", branch="fork-feature")
        runner.env = {**runner.env, "GITHUB_API_URL": github.api_url}
        event = pull_request_event(head_repo="fork/agent")
        part1 = runner.play(examples / "fork-evaluate.yml", "pull_request", event, "ghs_ro", {})
        assert part1["specsnap"].result == "success", played(runner)
        assert [r for r in github.requests if r.method not in ("GET",)] == []
        run = {
            "id": 99,
            "event": "pull_request",
            "head_sha": fork_head,
            "head_branch": "fork-feature",
            "head_repository": {"full_name": "fork/agent", "owner": {"login": "fork"}},
            "pull_requests": [],  # GitHub leaves a fork's pull request out
        }
        part2 = runner.play(
            examples / "fork-publish.yml", "workflow_run", {"workflow_run": run}, TOKEN, {}
        )
        log = played(runner)
        assert part2["publish"].result == "success", log
        (comment,) = ours(github)
        assert comment["_issue"] == 21, "the pull request comes from the event, not the artifact"
        assert "Verified before publishing" in comment["body"]
        (check,) = github.repos[REPO].check_runs.values()
        assert check["head_sha"] == fork_head and check["conclusion"] == "success"
