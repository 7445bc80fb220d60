"""The Action's Docker image, built from a cold cache, playing the documented workflows as a
GitHub runner plays them (tests/support/workflow_player.py): the workspace and HOME owned by
uid 1001, GitHub's own steps (checkout, artifacts, `run:`, the cleanup) on the host as 1001, each
action step a fresh root container of the image.

The engine and the image (built once per test run, from a cold cache, whichever pytest-xdist
worker asks first): tests/support/docker_engine.py. The containers use the host network so that
the loopback GitHub API answers them. Each play prints its steps' times.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tarfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.action_runner import (
    AGENT_REPO,
    HEAD,
    MERGE,
    REPO,
    TOKEN,
    action_defaults,
    github_api,
    ours,
    pull_request_event,
)
from tests.support.agent_cli import AGENTS_CACHE, cli_binary
from tests.support.fake_gemini import FakeGemini, Turn, Usage, run_shell_command
from tests.support.fake_model import presented_keys
from tests.support.github_server import GitHubServer
from tests.support.workflow_player import RUNNER_UID, Job, Runner, as_runner

# One xdist worker should run them all (one play at a time on the machine's two cores); see
# tests/support/docker_engine.py for why the engine and the images are shared instead.
pytestmark = [pytest.mark.docker, pytest.mark.slow, pytest.mark.xdist_group("docker")]

ROOT = Path(__file__).resolve().parents[2]


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
    with github_api(lifetime=900) as server:
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
    announce, evaluate, aggregate = runner.jobs
    assert outcomes(announce) == [RAN], log
    # "evaluating…" is on the pull request before session 1; the scores replace it.
    writes = [(r.method, r.path, str(r.body)) for r in github.requests if r.method != "GET"]
    first_comment = next(i for i, w in enumerate(writes) if w[1].endswith("/issues/12/comments"))
    first_check = next(i for i, w in enumerate(writes) if w[1].endswith("/check-runs"))
    assert first_comment < first_check and "is evaluating" in writes[first_comment][2], writes
    assert "in_progress" in writes[first_check][2], writes
    # The keys reach the session steps and no other: not prepare, grade or publish.
    keyed = {"ANTHROPIC_API_KEY"}
    ran = [step for step in evaluate.steps.values() if step.step and step.code is not None]
    assert [s.step for s in ran] == ["prepare", "session", "session", "grade", "publish"], log
    for step in ran:
        held = keyed & step.env_set
        assert held == (keyed if step.step == "session" else set()), (step.step, held)
    assert not keyed & aggregate.steps["publish"].env_set
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
    # Installed once: session 2's step (a fresh container) uses session 1's install, checked.
    assert "Install the agent" not in evaluate.steps["step3"].log, log
    assert "unchanged (digest" in evaluate.steps["step3"].log, log
    publish = aggregate.steps["publish"].outputs
    assert publish["evaluated"] == "true" and publish["pass"] == "false", log
    comments = ours(github)
    assert len(comments) == 1, log
    assert "is evaluating" not in comments[0]["body"]
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


GEMINI_KEY = "AIza" + "g" * 35  # the repository's GEMINI_API_KEY secret


def gemini_cli_offline(tmp_path: Path, checkout: Path) -> Path:
    """docs/examples/workflows/gemini-cli.yml as it stands, but for where its `agent_install`
    takes the pinned Gemini CLI from: the registry's tarball of that version, built here from
    the copy scripts/install-agent-clis.sh installed (no registry is reachable from the test),
    put in the checkout and installed with `npm install -g --offline`."""
    cli_binary("gemini")  # installed (or the test skips, naming why)
    package = AGENTS_CACHE / "node_modules" / "@google" / "gemini-cli"
    version = json.loads((package / "package.json").read_text())["version"]
    pins = (ROOT / "scripts" / "agent-clis.txt").read_text().split("\n")
    assert f"@google/gemini-cli {version}" in [" ".join(line.split()[2:4]) for line in pins]
    tarball = f"google-gemini-cli-{version}.tgz"
    with tarfile.open(checkout / tarball, "w:gz", compresslevel=1) as packed:
        packed.add(package, arcname="package")  # npm's layout: everything under package/
    (checkout / tarball).chmod(0o644)
    example = ROOT / "docs" / "examples" / "workflows" / "gemini-cli.yml"
    pinned = f"agent_install: npm install -g @google/gemini-cli@{version}\n"
    assert pinned in example.read_text(), "the example installs another Gemini CLI than the tests"
    workflow = tmp_path / "gemini-cli.yml"
    offline = f"agent_install: npm install -g --offline ./{tarball}\n"
    workflow.write_text(example.read_text().replace(pinned, offline))
    return workflow


def test_a_gemini_cli_evaluation_gets_its_key_in_the_session_steps_only(
    image: str, tmp_path: Path, github: GitHubServer
) -> None:
    """docs/examples/workflows/gemini-cli.yml, played with a GEMINI_API_KEY secret: the pinned
    Gemini CLI installed once for both session steps, against a scripted Gemini server on
    127.0.0.1 that accepts only that key. Each session step's meter holds the key and forwards
    to the server (GOOGLE_GEMINI_BASE_URL, the meter's upstream); prepare, grade and publish
    never see it. Session 1 is cut off at the CLI's first source edit; the card's metered tokens
    are what the server served."""
    runner = new_runner(image, tmp_path, AGENT_REPO, github)
    workflow = gemini_cli_offline(tmp_path, runner.checkout)
    edit = run_shell_command("printf 'NOTES = []\\n' > gemini_notes.py", "Keep notes")
    script = [Turn((edit,), Usage(input_tokens=900, output_tokens=40))]
    with FakeGemini(script, api_key=GEMINI_KEY, idle_timeout=900) as server:
        runner.servers = {"GOOGLE_GEMINI_BASE_URL": server.base_url}
        jobs = runner.play(
            workflow, "pull_request", pull_request_event(), TOKEN, {"GEMINI_API_KEY": GEMINI_KEY}
        )
        log = played(runner)
        served = server.total_usage()
        requests = list(server.requests)
    _announce, evaluate, aggregate = runner.jobs
    ran = [step for step in evaluate.steps.values() if step.step and step.code is not None]
    assert [s.step for s in ran] == ["prepare", "session", "session", "grade", "publish"], log
    for step in ran:
        held = {"GEMINI_API_KEY"} & step.env_set
        assert held == ({"GEMINI_API_KEY"} if step.step == "session" else set()), (step.step, log)
        assert not {"ANTHROPIC_API_KEY", "OPENAI_API_KEY"} & step.env_set  # no such secret
    assert "GEMINI_API_KEY" not in aggregate.steps["publish"].env_set
    # Installed once, as the agent's account, and checked before session 2.
    assert "Install the agent (as dev" in evaluate.steps["step2"].log, log
    assert "Install the agent" not in evaluate.steps["step3"].log, log
    assert "unchanged (digest" in evaluate.steps["step3"].log, log
    # Every request reached the server through a meter, with the key in its header.
    assert requests and not [r for r in requests if r.rejected], log
    assert {k for r in requests for k in presented_keys(r.headers, r.path)} == {GEMINI_KEY}
    assert all(r.header("x-goog-api-key") == GEMINI_KEY for r in requests)
    assert all("key=" not in r.path for r in requests)
    # A graded scorecard (not "not evaluated"), its tokens what the server served.
    assert outcomes(evaluate) == [
        RAN, RAN, RAN, RAN, SKIPPED, SKIPPED, RAN, NOT_PASSED, RAN, SKIPPED, SKIPPED,
    ], log  # fmt: skip
    assert jobs["specsnap"].result == "failure"  # notes implement nothing: not passed
    card = json.loads((runner.artifacts / "specsnap-tier-2-seed-1" / "scorecard.json").read_text())
    assert card["agent"]["name"] == "gemini-cli"
    assert card["grading"]["run_problem"] is None, card["grading"]
    sessions = card["sessions"]
    assert [s["exit"]["status"] for s in sessions] == ["cutoff", "completed"], sessions
    assert sessions[0]["cutoff"]["file"] == "gemini_notes.py", sessions[0]["cutoff"]
    assert [s["meter"]["apis"] for s in sessions] == [["gemini"], ["gemini"]]
    assert {s["tokens"]["source"] for s in sessions} == {"metered"}
    metered = [sum(s["tokens"][k] for s in sessions) for k in ("input", "output", "cache_read")]
    assert metered == [served.input_tokens, served.output_tokens, served.cache_read_input_tokens]
    assert served.input_tokens >= 900 and served.output_tokens >= 40  # the scripted turn too
    # Unofficial only because the container's seccomp profile refuses the agent's own network
    # namespace (docs/agents.md, "Egress"), and the counts are the scripted server's (the meter
    # forwarded to it, not to the API's public address): nothing about the key.
    assert all(
        "egress was not confined" in r or "the meter forwarded gemini requests to http://" in r
        for r in card["unofficial_reasons"]
    ), card
    (comment,) = ours(github)
    assert "`gemini-cli`" in comment["body"] and "not evaluated" not in comment["body"]


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
from specsnap.scorecard.receipt import seal
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
