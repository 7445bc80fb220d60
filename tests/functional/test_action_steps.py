"""The Action's evaluation steps run as the runner runs them (tests/support/action_runner.py):
a whole tier as job steps, the stage the ledger decides, the pull request's own agent, and a run
without its API key."""

from __future__ import annotations

import json
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from specsnap.ledger.store import append_candidate
from specsnap.submission.archive import read_archive
from tests.support.action_runner import (
    AGENT_REPO,
    REPO,
    ROOT,
    github_api,
    ours,
    run_action,
)
from tests.support.github_server import GitHubServer
from tests.support.ledgers import candidate


@pytest.fixture
def github() -> Iterator[GitHubServer]:
    with github_api() as server:
        yield server


@pytest.mark.slow
def test_a_whole_tier_as_job_steps_prepare_sessions_grade_publish(
    tmp_path: Path, github: GitHubServer
) -> None:
    workspace = tmp_path / "ws"
    common = {"tier": "2", "seed": "7", "agent": "notetaker"}
    prepared = run_action(workspace, github, step="prepare", **common)
    assert prepared.code == 0, prepared.stdout + prepared.stderr
    assert prepared.outputs["sessions"] == "2"
    assert prepared.outputs["run_dir"] == ".specsnap/runs/tier-2-seed-7"
    run_dir = workspace / prepared.outputs["run_dir"]
    # Feedback while it runs: the check run is in progress before session 1.
    log = github.repos[REPO].check_run_log
    ((check_id, status, summary),) = log
    assert status == "in_progress" and "`notetaker`" in summary
    first = run_action(workspace, github, step="session", session="1", **common)
    assert first.code == 0, first.stdout + first.stderr
    assert first.outputs["cutoff_fired"] == "true" and first.outputs["session_status"] == "cutoff"
    assert log[-1][:2] == (check_id, "in_progress") and "Session 1: cut off after" in log[-1][2]
    out_of_order = run_action(workspace, github, step="session", session="1", **common)
    assert out_of_order.code == 2 and "already ran" in out_of_order.stdout
    second = run_action(workspace, github, step="session", session="2", **common)
    assert second.code == 0 and second.outputs["cutoff_fired"] == "false"
    assert "Session 2: completed after" in log[-1][2] and "Session 1: cut off" in log[-1][2]
    graded = run_action(workspace, github, step="grade", **common)
    assert graded.code == 0, graded.stdout + graded.stderr
    assert graded.outputs["pass"] == "true" and graded.outputs["net_retention"] == "1.0000"
    assert "SpecSnap" in graded.summary
    published = run_action(workspace, github, step="publish", job_summary="false", **common)
    assert published.code == 0, published.stdout + published.stderr
    assert published.summary == ""  # as evaluate.yml runs it: the grade step wrote the summary
    (comment,) = ours(github)
    assert "| tier-2, seed 7 | 100.0% | 100.0% |" in comment["body"]
    # The same check run was completed: no second one.
    assert list(github.repos[REPO].check_runs) == [check_id]
    assert github.repos[REPO].check_runs[check_id]["conclusion"] == "success"
    assert log[-1][:2] == (check_id, "completed")
    (run,) = github.repos[REPO].check_runs.values()
    assert run["conclusion"] == "success"
    assert run["output"]["text"] == (run_dir / "scorecard.md").read_text()
    submitted = run_action(workspace, github, step="submit", **common)
    assert submitted.code == 0, submitted.stdout + submitted.stderr
    assert submitted.outputs["bundle"] == ".specsnap/runs/tier-2-seed-7/submission.specsnap.tar"
    members = read_archive(workspace / submitted.outputs["bundle"])
    assert members["scorecard.json"] == (run_dir / "scorecard.json").read_bytes()


def test_the_ledger_decides_the_stage_and_a_broken_one_is_bad_input(
    tmp_path: Path, github: GitHubServer
) -> None:
    workspace = tmp_path / "ws"
    ledger = workspace / "board" / "ledger.jsonl"
    ledger.parent.mkdir(parents=True)
    common = {"tier": "2", "agent": "notetaker", "ledger": "board/ledger.jsonl"}
    locked = run_action(workspace, github, step="prepare", seed="1", **common)
    assert locked.code == 0, locked.stdout + locked.stderr
    run = json.loads((workspace / locked.outputs["run_dir"] / "run.json").read_text())
    assert (run["stage"], run["stage2_unlocked"]) == (1, False)
    append_candidate(ledger, candidate(seed=2))  # PASS and TES >= 75%: Stage II unlocked
    unlocked = run_action(workspace, github, step="prepare", seed="2", **common)
    assert unlocked.code == 0, unlocked.stdout + unlocked.stderr
    run = json.loads((workspace / unlocked.outputs["run_dir"] / "run.json").read_text())
    assert (run["stage"], run["stage2_unlocked"]) == (2, True)
    ledger.write_text("{not a ledger\n")
    broken = run_action(workspace, github, step="prepare", seed="3", **common)
    assert broken.code == 2 and "ledger.jsonl" in broken.stdout + broken.stderr


@pytest.mark.slow
def test_the_all_step_evaluates_the_pull_requests_own_agent(
    tmp_path: Path, github: GitHubServer
) -> None:
    workspace = tmp_path / "ws"
    shutil.copytree(AGENT_REPO, workspace)
    result = run_action(
        workspace,
        github,
        step="all",
        tier="tier-2",
        seed="3",
        agent="tinyagent",  # registered by the install below, not known to SpecSnap before
        agent_install="pip install --quiet .",
        fail_on="never",
        timeout=600,
    )
    assert result.code == 0, result.stdout + result.stderr
    assert "::group::Install the agent (as dev" in result.stdout
    assert not (workspace / "build").exists()  # it installed from a copy, not the checkout
    run_dir = workspace / ".specsnap" / "runs" / "tier-2-seed-3"
    card = json.loads((run_dir / "scorecard.json").read_text())
    assert card["agent"]["name"] == "tinyagent"
    sessions = card["sessions"]
    assert [s["exit"]["status"] for s in sessions] == ["cutoff", "completed"]
    records = [
        json.loads((run_dir / "sessions" / str(n) / "session.json").read_text()) for n in (1, 2)
    ]
    reported = [r["tokens_reported"] for r in records]  # what its adapter's usage() read
    assert [(t["input"], t["source"]) for t in reported] == [(10, "reported"), (20, "reported")]
    seen = [
        json.loads((run_dir / "sessions" / str(n) / "stdout.log").read_text().splitlines()[0])
        for n in (1, 2)
    ]
    for facts in seen:
        assert "/specsnap-agent-" in facts["python"] and "/venv/bin/python" in facts["python"]
        assert str(ROOT / ".venv") not in facts["path"] and sys.prefix not in facts["path"]
        assert facts["pytest"] is None  # the grader's pytest is SpecSnap's, not the agent's
        assert facts["uid"] != 0 and facts["prompt_read"]
    assert len(ours(github)) == 1 and len(github.repos[REPO].check_runs) == 1


def test_a_run_without_its_api_key_is_not_evaluated_and_said_so(
    tmp_path: Path, github: GitHubServer
) -> None:
    workspace = tmp_path / "ws"
    common = {"tier": "2", "seed": "4", "agent": "claude-code", "pass_env": "ANTHROPIC_API_KEY"}
    prepared = run_action(workspace, github, step="prepare", **common)
    assert prepared.code == 0, prepared.stdout + prepared.stderr
    assert prepared.outputs["evaluated"] == "false"
    session = run_action(workspace, github, step="session", session="1", **common)
    assert session.code == 0 and session.outputs["evaluated"] == "false"
    published = run_action(workspace, github, step="publish", **common)
    assert published.code == 0, published.stdout + published.stderr
    (comment,) = ours(github)
    assert "not evaluated" in comment["body"] and "no API key" in comment["body"]
    assert "0.0%" not in comment["body"]
    assert github.repos[REPO].check_runs == {}


def test_keys_reach_only_the_sessions_and_a_session_without_one_is_not_evaluated(
    tmp_path: Path, github: GitHubServer
) -> None:
    """The split evaluation as evaluate.yml runs it: prepare knows the keys by name only
    (`keys_present`), a session step gets them (here from the `api_keys` map), and a session
    step that lacks one ends the evaluation as "not evaluated", saying which session and key."""
    workspace = tmp_path / "ws"
    common = {"tier": "2", "seed": "3", "agent": "notetaker"}
    prepared = run_action(
        workspace,
        github,
        step="prepare",
        pass_env="MISTRAL_API_KEY",
        keys_present="SPECSNAP_API_KEYS",
        **common,
    )
    assert prepared.code == 0 and prepared.outputs["evaluated"] == "true", prepared.stdout
    keyed = '{"MISTRAL_API_KEY": "mistral-key-for-the-session"}'
    first = run_action(workspace, github, step="session", session="1", api_keys=keyed, **common)
    assert first.code == 0 and first.outputs["cutoff_fired"] == "true", first.stdout
    second = run_action(workspace, github, step="session", session="2", **common)
    assert second.code == 0 and second.outputs["evaluated"] == "false", second.stdout
    assert "session 2 had no MISTRAL_API_KEY" in second.summary
    assert "mistral-key-for-the-session" not in first.stdout + first.stderr + first.summary
    graded = run_action(workspace, github, step="grade", **common)
    assert graded.code == 0 and graded.outputs["evaluated"] == "false"
    published = run_action(workspace, github, step="publish", **common)
    assert published.code == 0, published.stdout + published.stderr
    (comment,) = ours(github)
    assert "session 2 had no MISTRAL\\_API\\_KEY" in comment["body"]  # Markdown-escaped


def test_prepare_judges_by_the_names_the_workflow_has_secrets_for(
    tmp_path: Path, github: GitHubServer
) -> None:
    common = {"tier": "2", "seed": "3", "agent": "notetaker", "pass_env": "GEMINI_API_KEY"}
    other = run_action(
        tmp_path / "a", github, step="prepare", keys_present="OPENAI_API_KEY", **common
    )
    assert other.outputs["evaluated"] == "false" and "GEMINI_API_KEY" in other.summary
    named = run_action(
        tmp_path / "b", github, step="prepare", keys_present="GEMINI_API_KEY", **common
    )
    assert named.code == 0 and named.outputs["evaluated"] == "true", named.stdout


@pytest.mark.slow
def test_the_agent_is_installed_once_per_job_and_a_changed_install_is_an_error(
    tmp_path: Path, github: GitHubServer
) -> None:
    """The reusable workflow's session steps: the first installs the pull request's agent into
    the workspace, the next uses that install after checking its digest, and an install that
    changed between the steps stops the evaluation (exit 3) instead of being reinstalled."""
    workspace = tmp_path / "ws"
    shutil.copytree(AGENT_REPO, workspace)
    install = {"agent_install": "pip install --quiet ."}
    common = {"tier": "2", "seed": "5", "agent": "tinyagent"}
    prepared = run_action(workspace, github, step="prepare", **install, **common)
    assert prepared.code == 0, prepared.stdout + prepared.stderr
    first = run_action(
        workspace, github, step="session", session="1", timeout=600, **install, **common
    )
    assert first.code == 0, first.stdout + first.stderr
    assert first.stdout.count("::group::Install the agent (as dev") == 1
    prefix = workspace / ".specsnap" / "specsnap-agent-tier-2-seed-5"
    (marker,) = prefix.glob("venv/lib/python3*/site-packages/tinyagent*/__init__.py")
    original = marker.read_bytes()
    marker.write_bytes(original + b"\n# changed between two steps\n")
    changed = run_action(workspace, github, step="session", session="2", **install, **common)
    assert changed.code == 3, changed.stdout + changed.stderr
    assert (
        "changed since it was installed" in changed.stdout
        and "Install the agent" not in changed.stdout
    )
    marker.write_bytes(original)
    second = run_action(workspace, github, step="session", session="2", **install, **common)
    assert second.code == 0, second.stdout + second.stderr
    assert "Install the agent" not in second.stdout and "unchanged (digest" in second.stdout
