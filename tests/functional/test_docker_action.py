"""The Action's Docker image, built from a cold cache, playing the documented workflows as a
GitHub runner plays them (tests/support/workflow_player.py): the workspace and HOME owned by
uid 1001, GitHub's own steps (checkout, artifacts, `run:`, the cleanup) on the host as 1001, each
action step a fresh root container of the image.

The test run uses the local Docker engine, starting `dockerd` itself when none answers (as root).
No container registry is needed: the base image is built by scripts/build-base-image.sh when the
engine lacks it (SPECSNAP_BASE_IMAGE=pinned builds FROM the Dockerfile's own pinned base). The
image is built once per test run, from a cold cache, and shared by every test here, whichever
pytest-xdist worker runs it (a lock and a use count in the test run's temporary directory);
SPECSNAP_ACTION_IMAGE names an image built already instead (to iterate on the tests, never in
CI). The containers use the host network so that the loopback GitHub API answers them. Each
play prints its steps' times.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import requests
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa

from specsnap.bot.webhook import signature
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
from tests.support.workflow_player import RUNNER_UID, Job, Runner, as_runner

# One xdist worker should run them all (`loadgroup`: one play at a time on the machine's two
# cores), but pytest-xdist 3.8 under pytest 9 no longer keeps a group on one worker; the engine
# and the images are therefore shared through `shared_state`, never started or built twice.
pytestmark = [pytest.mark.docker, pytest.mark.slow, pytest.mark.xdist_group("docker")]

ROOT = Path(__file__).resolve().parents[2]
LOCAL_BASE_IMAGE = "specsnap-base:bookworm-slim"  # scripts/build-base-image.sh makes it
BASE_IMAGE = os.environ.get("SPECSNAP_BASE_IMAGE", LOCAL_BASE_IMAGE)
IMAGE = "specsnap-action:test"
BOT_IMAGE = "specsnap-bot:test"
PREBUILT = os.environ.get("SPECSNAP_ACTION_IMAGE", "")


@contextlib.contextmanager
def shared_state(factory: pytest.TempPathFactory) -> Iterator[Path]:
    """What the workers of one test run share (a lock, the engine's users, what was built), in
    the run's temporary directory, held under an exclusive lock for the block."""
    base = factory.getbasetemp()
    shared = (base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base) / "docker-shared"
    shared.mkdir(mode=0o700, exist_ok=True)
    with (shared / "lock").open("w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        yield shared


def docker_answers() -> bool:
    if shutil.which("docker") is None:
        return False
    done = subprocess.run(["docker", "info"], capture_output=True, check=False, timeout=60)
    return done.returncode == 0


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """A Docker engine: the running one, or a `dockerd` this test run starts, shared by every
    worker that needs it, and stopped by the last one done with it."""
    with shared_state(tmp_path_factory) as shared:
        users = shared / "users"
        count = int(users.read_text()) if users.exists() else 0
        if count == 0 and not docker_answers():
            _start_dockerd(shared)
        users.write_text(str(count + 1))
    try:
        yield
    finally:
        with shared_state(tmp_path_factory) as shared:
            count = int((shared / "users").read_text()) - 1
            (shared / "users").write_text(str(count))
            pid_file = shared / "dockerd.pid"
            if count == 0 and pid_file.exists():
                _stop(int(pid_file.read_text()))
                pid_file.unlink()


def _start_dockerd(shared: Path) -> None:
    if shutil.which("docker") is None or shutil.which("dockerd") is None:
        pytest.skip(
            "no Docker engine: docker/dockerd are not installed (apt-get install docker.io)"
        )
    if os.geteuid() != 0:
        pytest.skip("no Docker engine answers, and starting dockerd needs root")
    log = shared / "dockerd.log"
    with log.open("ab") as out:
        # Its own session: it outlives the worker that started it if another still uses it.
        daemon = subprocess.Popen(
            ["dockerd"], stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )
    deadline = time.monotonic() + 60
    while not docker_answers():
        if daemon.poll() is not None or time.monotonic() > deadline:
            _stop(daemon.pid)
            pytest.skip(f"dockerd could not be started here: {log.read_text()[-2000:]}")
        time.sleep(1)
    (shared / "dockerd.pid").write_text(str(daemon.pid))


def _stop(pid: int) -> None:
    """SIGTERM, then SIGKILL after 30 s; done when the process is gone or a zombie."""
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGTERM)
    deadline = time.monotonic() + 30
    while _alive(pid):
        if time.monotonic() > deadline:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        time.sleep(0.2)


def _alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rpartition(")")[2].split()[0] not in ("Z", "X")


@pytest.fixture(scope="module")
def image(engine: None, tmp_path_factory: pytest.TempPathFactory) -> str:
    """The Action's image, built from a cold cache (`--no-cache`), FROM the local base image
    (built first when missing) or, with SPECSNAP_BASE_IMAGE=pinned, the Dockerfile's own."""
    if PREBUILT:
        return PREBUILT
    with shared_state(tmp_path_factory) as shared:
        if not (shared / "action-image").exists():
            _build_action_image()
            (shared / "action-image").touch()
    return IMAGE


def _build_action_image() -> None:
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
    command = ["docker", "build", "--no-cache", "--network", "host", *base, "--target", "action"]
    build = subprocess.run(
        [*command, "-t", IMAGE, str(ROOT)],
        capture_output=True,
        text=True,
        check=False,
        timeout=1200,
    )
    assert build.returncode == 0, build.stdout[-4000:] + build.stderr[-4000:]
    print(f"cold build of the action image: {time.monotonic() - started:.0f}s")


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


def new_runner(image: str, tmp_path: Path, repository: Path, github: GitHubServer) -> Runner:
    """A runner whose jobs check out `repository` (a pull request of it) and reach `github`."""
    root = tmp_path / "runner"
    root.mkdir()
    root.chmod(0o755)
    checkout = tmp_path / "checkout"
    shutil.copytree(repository, checkout)
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
            "GITHUB_API_URL": github.api_url,
        },
        action_defaults=action_defaults(),
    )


@pytest.fixture
def github() -> Iterator[GitHubServer]:
    with GitHubServer(prefix="/api/v3", lifetime=900) as server:
        server.add_repo(REPO)
        server.add_token(TOKEN, write=True)
        server.add_token("ghs_ro", write=False)
        server.add_pull(REPO, 12, HEAD)
        yield server


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


RAN, SKIPPED, NOT_PASSED = ("success", 0), ("skipped", None), ("failure", 1)


def test_the_quick_start_evaluates_the_pull_requests_own_agent(
    image: str, tmp_path: Path, github: GitHubServer
) -> None:
    """docs/action.md's quick start, literally: own-agent.yml calling evaluate.yml, the agent
    `pip install .`-ed from the pull request's checkout, its adapter found afterwards."""
    runner = new_runner(image, tmp_path, AGENT_REPO, github)
    jobs = runner.play(
        ROOT / "docs" / "examples" / "workflows" / "own-agent.yml",
        "pull_request",
        pull_request_event(),
        TOKEN,
        {"ANTHROPIC_API_KEY": "sk-ant-test-not-used-by-a-model-free-agent"},
    )
    log = played(runner)
    evaluate, aggregate = runner.jobs
    # tinyagent keeps notes and implements nothing: tier-2 is not passed, which fails the check
    # run's step with exit 1 (the agent's result, `fail_on: not_passed`), never with 3. The
    # submission steps are skipped: the example does not ask for `submission: true`.
    assert outcomes(evaluate) == [
        RAN, RAN, RAN, RAN, SKIPPED, SKIPPED, RAN, NOT_PASSED, RAN, SKIPPED, SKIPPED,
    ], log  # fmt: skip
    assert outcomes(aggregate) == [RAN, NOT_PASSED, RAN], log
    assert jobs["specsnap"].result == "failure"
    assert all(job.logs[-1].startswith("--- cleanup as uid 1001: exit 0") for job in runner.jobs)
    assert "Install the agent (as dev" in evaluate.steps["step2"].log, log
    publish = aggregate.steps["publish"].outputs
    assert publish["evaluated"] == "true" and publish["pass"] == "false", log
    comments = ours(github)
    assert len(comments) == 1, log
    assert "`tinyagent`" in comments[0]["body"] and "| tier-2, seed 1 |" in comments[0]["body"]
    (check,) = github.repos[REPO].check_runs.values()
    assert check["head_sha"] == HEAD and check["name"] == "SpecSnap (tier-2, seed 1)"
    assert check["conclusion"] == "failure"
    artifact = runner.artifacts / "specsnap-tier-2-seed-1"
    card = json.loads((artifact / "scorecard.json").read_text())
    assert card["agent"]["name"] == "tinyagent"
    assert card["grading"]["run_problem"] is None, card["grading"]  # the grader ran in the image
    assert card["gate"]["holds"], card["gate"]  # notes break nothing that worked
    sessions = card["sessions"]
    assert [s["exit"]["status"] for s in sessions] == ["cutoff", "completed"]
    assert [s["tokens_reported"]["input"] for s in sessions] == [10, 20]  # its own usage()
    assert json.loads((runner.artifacts / "specsnap-badge" / "specsnap-badge.json").read_text())


def test_a_node_cli_from_the_pull_request_is_installed_with_npm_and_evaluated(
    image: str, tmp_path: Path, github: GitHubServer
) -> None:
    """own-node-agent.yml: `npm install -g .` of the checkout, as the agent's account, into its
    own npm prefix, then the `command` adapter runs it. tinynode crashes its session unless it
    runs with Node >= 22, not as root, with no pytest on PATH and the tiers out of reach."""
    runner = new_runner(image, tmp_path, ROOT / "tests" / "fixtures" / "node-agent-repo", github)
    jobs = runner.play(
        ROOT / "docs" / "examples" / "workflows" / "own-node-agent.yml",
        "pull_request",
        pull_request_event(),
        TOKEN,
        {"ANTHROPIC_API_KEY": "sk-ant-test-not-used-by-a-model-free-agent"},
    )
    log = played(runner)
    assert outcomes(runner.jobs[0]) == [RAN, NOT_PASSED, RAN], log
    assert jobs["specsnap"].result == "failure"
    assert "Install the agent (as dev" in runner.jobs[0].steps["specsnap"].log
    card = json.loads((runner.artifacts / "specsnap-scorecard" / "scorecard.json").read_text())
    sessions = card["sessions"]
    assert [s["exit"]["status"] for s in sessions] == ["cutoff", "completed"], sessions
    assert [s["tokens_reported"]["input"] for s in sessions] == [7, 7]  # $SPECSNAP_USAGE_FILE
    assert card["grading"]["run_problem"] is None and card["gate"]["holds"], card["grading"]
    (comment,) = ours(github)
    assert "`command`" in comment["body"]


def test_the_fork_recipe_publishes_only_what_it_regraded(
    image: str, tmp_path: Path, github: GitHubServer
) -> None:
    """fork-evaluate.yml with the fork's read-only token, its artifact, then fork-publish.yml
    from the workflow_run event: first with the artifact tampered with (a forged scorecard,
    its verdict turned around), which is refused, then as part 1 left it, which is published."""
    examples = ROOT / "docs" / "examples" / "workflows"
    fork_head = "e" * 40
    github.add_pull(REPO, 21, fork_head, fork="fork/agent", branch="fork-feature")
    runner = new_runner(image, tmp_path, AGENT_REPO, github)
    event = pull_request_event(head_repo="fork/agent")
    part1 = runner.play(examples / "fork-evaluate.yml", "pull_request", event, "ghs_ro", {})
    assert part1["specsnap"].result == "success", played(runner)
    assert [r for r in github.requests if r.method != "GET"] == []  # read-only: nothing written
    run = {
        "id": 99,
        "event": "pull_request",
        "head_sha": fork_head,
        "head_branch": "fork-feature",
        "head_repository": {"full_name": "fork/agent", "owner": {"login": "fork"}},
        "pull_requests": [],  # GitHub leaves a fork's pull request out
    }
    genuine = runner.artifacts / "specsnap-run" / "specsnap-run.tgz"
    kept = tmp_path / "genuine.tgz"
    shutil.copyfile(genuine, kept)
    forge_pass(genuine, tmp_path / "forgery")

    refused = runner.play(
        examples / "fork-publish.yml", "workflow_run", {"workflow_run": run}, TOKEN, {}
    )
    log = played(runner)
    assert refused["publish"].result == "success", log  # nothing to fail: nothing published
    (comment,) = ours(github)
    assert comment["_issue"] == 21, "the pull request comes from the event, not the artifact"
    assert "not evaluated" in comment["body"] and "did not verify" in comment["body"], log
    assert github.repos[REPO].check_runs == {}

    shutil.copyfile(kept, genuine)
    published = runner.play(
        examples / "fork-publish.yml", "workflow_run", {"workflow_run": run}, TOKEN, {}
    )
    log = played(runner)
    assert published["publish"].result == "success", log
    (comment,) = ours(github)  # the same sticky comment, now with the verified result
    assert (
        "Verified before publishing" in comment["body"] and "did not verify" not in comment["body"]
    )
    (check,) = github.repos[REPO].check_runs.values()
    assert check["head_sha"] == fork_head and check["conclusion"] == "success", check


def forge_pass(tarball: Path, scratch: Path) -> None:
    """What a fork can do to its artifact: turn its verdict around (a failing agent claims a
    pass) in a scorecard sealed again, so its receipt's digest is right. Done as the runner's
    account, as GitHub's steps would."""
    script = r"""
import json, pathlib, subprocess, sys
sys.path.insert(0, sys.argv[3])
from specsnap.receipt import seal
tarball, scratch = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
subprocess.run(["tar", "-xzf", str(tarball), "-C", str(scratch)], check=True)
(card_path,) = scratch.glob("*/scorecard.json")
card = json.loads(card_path.read_text())
for requirement in card["requirements"]:
    requirement["passed"] = not requirement["passed"]
scores = card["scores"]
scores.update(
    {"raw_retention": 1 - scores["raw_retention"], "net_retention": 1 - scores["net_retention"]}
)
scores["pass"] = not scores["pass"]
card["receipt"].pop("scorecard_sha256")
card_path.write_text(json.dumps(seal(card), indent=2))
subprocess.run(["tar", "-czf", str(tarball), "-C", str(scratch), card_path.parent.name], check=True)
"""
    scratch.mkdir()
    os.chown(scratch, RUNNER_UID, RUNNER_UID)
    as_runner(["python3", "-c", script, str(tarball), str(scratch), str(ROOT)])


@pytest.fixture(scope="module")
def bot_image(image: str, tmp_path_factory: pytest.TempPathFactory) -> str:
    """The bot's image (target `bot`), on the layers the Action's cold build just made."""
    with shared_state(tmp_path_factory) as shared:
        if not (shared / "bot-image").exists():
            _build_bot_image()
            (shared / "bot-image").touch()
    return BOT_IMAGE


def _build_bot_image() -> None:
    base = [] if BASE_IMAGE == "pinned" else ["--build-arg", f"BASE_IMAGE={BASE_IMAGE}"]
    started = time.monotonic()
    command = ["docker", "build", "--network", "host", *base, "--target", "bot"]
    build = subprocess.run(
        [*command, "-t", BOT_IMAGE, str(ROOT)],
        capture_output=True,
        text=True,
        check=False,
        timeout=1200,
    )
    assert build.returncode == 0, build.stdout[-4000:] + build.stderr[-4000:]
    print(f"build of the bot image on the Action's layers: {time.monotonic() - started:.0f}s")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_the_bot_image_serves_the_app_answers_at_once_and_dispatches(
    bot_image: str, tmp_path: Path
) -> None:
    """The `bot` target as docs/bot.md runs it: an unprivileged service answering signed
    deliveries, healthy by its own health check, starting the workflow on the commented head."""
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    pem = key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )
    public = key.public_key().public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
    )
    key_file = tmp_path / "app.pem"
    key_file.write_bytes(pem)
    key_file.chmod(0o644)  # the container's account reads it through a read-only mount
    secret, port, name = "bot-secret", free_port(), f"specsnap-bot-test-{os.getpid()}"
    with GitHubServer(prefix="/api/v3", lifetime=300) as github:
        github.app = {"id": 4242, "public_key": public.decode(), "private_key": pem.decode()}
        repo = github.add_repo(REPO)
        repo.collaborators["dev"] = "write"
        workflow = {"id": 9, "name": "SpecSnap", "path": ".github/workflows/specsnap.yml"}
        repo.workflows["specsnap.yml"] = workflow
        github.add_pull(REPO, 12, HEAD)
        env = {
            "SPECSNAP_APP_ID": "4242",
            "SPECSNAP_WEBHOOK_SECRET": secret,
            "SPECSNAP_APP_PRIVATE_KEY_FILE": "/run/secrets/app.pem",
            "GITHUB_API_URL": github.api_url,
            "SPECSNAP_BOT_PORT": str(port),
        }
        run = ["docker", "run", "-d", "--rm", "--name", name, "--network", "host"]
        run += [f"--env={k}={v}" for k, v in env.items()]
        run += ["-v", f"{key_file}:/run/secrets/app.pem:ro", bot_image, "--host", "127.0.0.1"]
        started = subprocess.run(
            run,
            capture_output=True,
            text=True,
            check=False,
        )
        assert started.returncode == 0, started.stderr
        try:
            url = f"http://127.0.0.1:{port}/"
            deadline = time.monotonic() + 60
            while not bot_answers(url):
                assert time.monotonic() < deadline, docker_logs(name)
                time.sleep(0.5)
            check = subprocess.run(
                ["docker", "exec", name, "/opt/specsnap/venv/bin/specsnap-bot", "health"],
                capture_output=True,
                text=True,
                check=False,
            )
            assert check.returncode == 0 and '"status": "ok"' in check.stdout, check.stderr
            user = subprocess.run(
                ["docker", "exec", name, "id", "-u"], capture_output=True, text=True, check=False
            )
            assert user.stdout.strip() == "61200"
            posted = github.add_comment(REPO, 12, "/specsnap run tier=2 seed=3", login="dev")
            stamp = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
            payload = {
                "action": "created",
                "installation": {"id": 31},
                "repository": {"full_name": REPO},
                "issue": {"number": 12, "pull_request": {"url": "x"}},
                "comment": {
                    "id": posted["id"],
                    "body": posted["body"],
                    "created_at": stamp,
                    "updated_at": stamp,
                    "user": {"login": "dev", "type": "User"},
                },
            }
            body = json.dumps(payload).encode()
            answer = requests.post(
                url,
                data=body,
                headers={
                    "X-GitHub-Event": "issue_comment",
                    "X-GitHub-Delivery": "docker-1",
                    "X-Hub-Signature-256": signature(secret.encode(), body),
                },
                timeout=10,
            )
            assert answer.status_code == 202 and answer.text.strip() == "queued"
            deadline = time.monotonic() + 60
            while len(repo.comments) < 2:
                assert time.monotonic() < deadline, docker_logs(name)
                time.sleep(0.2)
            (dispatch,) = repo.dispatches
            assert dispatch["inputs"] == {
                "pull_request": "12", "commit": HEAD, "tier": "tier-2", "seed": "3",
            }  # fmt: skip
            assert "started a SpecSnap evaluation of" in list(repo.comments.values())[-1]["body"]
        finally:
            stopped = subprocess.run(
                ["docker", "stop", "-t", "20", name], capture_output=True, text=True, check=False
            )
        assert stopped.returncode == 0, stopped.stderr


def bot_answers(url: str) -> bool:
    try:
        return requests.get(url + "healthz", timeout=2).status_code == 200
    except requests.RequestException:
        return False


def docker_logs(name: str) -> str:
    done = subprocess.run(["docker", "logs", name], capture_output=True, text=True, check=False)
    return done.stdout + done.stderr
