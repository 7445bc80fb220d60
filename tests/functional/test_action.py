"""The Action's publishing steps, run as the runner runs them (tests/support/action_runner.py)
against the loopback GitHub API: the sticky comment, the check run, forks and refused tokens,
retries, truncation, deltas, bad input, and the bot step."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from specsnap.render.limits import COMMENT_MAX, github_length
from tests.support.action_runner import (
    HEAD,
    REPO,
    comment_event,
    github_api,
    ours,
    pull_request_event,
    push_event,
    run_action,
    workflow_run_event,
)
from tests.support.github_server import GitHubServer
from tests.support.scorecards import many_violations, write_fixture


@pytest.fixture
def github() -> Iterator[GitHubServer]:
    with github_api() as server:
        yield server


def test_the_pr_comment_is_created_once_then_edited(tmp_path: Path, github: GitHubServer) -> None:
    workspace = tmp_path / "ws"
    write_fixture(workspace / "runs" / "t2", "tier-2-seed-7")
    first = run_action(workspace, github, step="publish", scorecards="runs/*/scorecard.json")
    assert first.code == 1, first.stdout + first.stderr  # ran, and the scorecard did not pass
    assert first.outputs["pass"] == "false" and first.outputs["net_retention"] == "0.0000"
    assert first.outputs["raw_retention"] == "0.7500" and first.outputs["published"] == "true"
    second = run_action(workspace, github, step="publish", scorecards="runs/*/scorecard.json")
    assert second.code == 1
    (comment,) = ours(github)
    assert second.outputs["comment_url"] == first.outputs["comment_url"] == comment["html_url"]
    assert comment["updated_at"] >= comment["created_at"]
    assert len(github.calls("POST", r"/issues/12/comments$")) == 1
    assert len(github.calls("PATCH", r"/issues/comments/\d+$")) == 1
    assert "| tier-2, seed 7 | 0.0% | 75.0% |" in comment["body"]
    assert "[workflow run](https://github.example/octo/agent/actions/runs/4242)" in comment["body"]
    assert "| tier-2, seed 7 | 0.0% | 75.0% |" in first.summary
    assert first.outputs["badge_path"] == "runs/t2/specsnap-badge.json"  # relative: see docs
    badge = json.loads((workspace / first.outputs["badge_path"]).read_text())
    assert badge["schemaVersion"] == 1 and badge["color"] == "red"
    svg = (workspace / first.outputs["badge_path"]).with_suffix(".svg").read_text()
    assert svg.startswith("<svg")


def test_the_sticky_comment_says_evaluating_until_the_scores_replace_it(
    tmp_path: Path, github: GitHubServer
) -> None:
    """`step: announce`, the reusable workflow's first job: "evaluating…" in a new comment, then
    (a newer push) above the last scores, gone once the scores are published; `failures` mode
    never creates a comment for it; a read-only token leaves it out and the step succeeds."""
    workspace = tmp_path / "ws"
    quiet = run_action(workspace, github, step="announce", comment_mode="failures")
    assert quiet.code == 0 and ours(github) == []
    started = run_action(workspace, github, step="announce")
    assert started.code == 0, started.stdout + started.stderr
    (comment,) = ours(github)
    assert "SpecSnap is evaluating `aaaaaaaaaaaa`" in comment["body"]
    write_fixture(workspace / "runs" / "t2", "tier-2-seed-7")
    run_action(workspace, github, step="publish", scorecards="runs/*/scorecard.json")
    (comment,) = ours(github)
    assert "is evaluating" not in comment["body"] and "| tier-2, seed 7 |" in comment["body"]
    again = run_action(workspace, github, step="announce", comment_mode="failures")
    assert again.code == 0
    (comment,) = ours(github)  # edited in place, in any mode: the last scores stay below
    body = comment["body"]
    assert body.index("is evaluating") < body.index("| tier-2, seed 7 |")
    assert body.count("is evaluating") == 1 and body.startswith("<!-- specsnap:comment:default")
    refused = run_action(workspace, github, step="announce", token="ghs_ro")
    assert refused.code == 0 and "does not say the evaluation started" in refused.stdout
    assert len(github.calls("POST", r"/issues/12/comments$")) == 1


def test_the_check_run_carries_conclusion_and_annotations(
    tmp_path: Path, github: GitHubServer
) -> None:
    workspace = tmp_path / "ws"
    path = write_fixture(workspace / "run", "tier-2-seed-7")
    result = run_action(workspace, github, step="publish", scorecards=str(path))
    assert result.code == 1
    ((run_id, run),) = github.repos[REPO].check_runs.items()
    assert run["name"] == "SpecSnap (tier-2, seed 7)" and run["head_sha"] == HEAD
    assert run["status"] == "completed" and run["conclusion"] == "failure"
    assert run["details_url"] == "https://github.example/octo/agent/actions/runs/4242"
    assert result.outputs["check_run_url"] == run["html_url"]
    annotations = github.repos[REPO].annotations[run_id]
    where = {(a["path"], a["start_line"], a["annotation_level"]) for a in annotations}
    assert {
        ("shipping/rates.py", 42, "failure"),
        ("catalog/products.py", 7, "failure"),
        ("wiring.yaml", 1, "failure"),
        ("tests/test_shipping.py", 1, "failure"),
        ("tests/test_orders.py", 1, "failure"),
        ("shipping/__init__.py", 1, "warning"),
        ("orders/__init__.py", 1, "warning"),
    } == where
    assert "specsnap:snapshot" in run["output"]["summary"]


def test_a_fork_pull_request_degrades_to_the_summary_and_never_fails(
    tmp_path: Path, github: GitHubServer
) -> None:
    workspace = tmp_path / "ws"
    path = write_fixture(workspace / "run", "tier-1-seed-3")
    result = run_action(
        workspace,
        github,
        step="publish",
        scorecards=str(path),
        event=pull_request_event(head_repo="fork/agent"),
        token="ghs_ro",
    )
    assert result.code == 0, result.stdout + result.stderr
    assert result.outputs["published"] == "false" and result.outputs["pass"] == "true"
    assert "::warning title=SpecSnap%3A published to the job summary only::" in result.stdout
    assert "two-workflow" in result.summary and "| tier-1, seed 3 | 100.0%" in result.summary
    assert [r for r in github.requests if r.method != "GET"] == []


def test_a_token_github_refuses_degrades_too(tmp_path: Path, github: GitHubServer) -> None:
    workspace = tmp_path / "ws"
    path = write_fixture(workspace / "run", "tier-2-seed-7")
    result = run_action(
        workspace, github, step="publish", scorecards=str(path), token="ghs_ro", fail_on="never"
    )
    assert result.code == 0
    assert "Resource not accessible by integration" in result.stdout
    assert result.stdout.count("::error title=Module boundary violated%3A ") == 2
    assert result.stdout.count("::error title=Protected file ") == 2
    assert (
        "::error title=Module boundary violated%3A shipping.rates → orders.ledger,file="
        "shipping/rates.py,line=42::" in result.stdout
    )


def test_server_errors_and_rate_limits_are_retried(tmp_path: Path, github: GitHubServer) -> None:
    workspace = tmp_path / "ws"
    path = write_fixture(workspace / "run", "tier-1-seed-3")
    github.fail("GET", r"/repos/octo/agent$", "502")
    github.fail("POST", r"/check-runs$", "500")
    github.fail("GET", r"/issues/12/comments$", "primary_rate_limit")
    github.fail("POST", r"/issues/12/comments$", "429")
    github.fail("GET", r"/commits$", "secondary_rate_limit")
    result = run_action(workspace, github, step="publish", scorecards=str(path))
    assert result.code == 0, result.stdout + result.stderr
    assert result.outputs["published"] == "true"
    assert len(github.repos[REPO].check_runs) == 1 and len(ours(github)) == 1
    failed = [r.status for r in github.requests if r.status >= 400]
    assert sorted(failed) == [403, 403, 429, 500, 502]
    assert "Retrying after 1 seconds" in result.stderr  # PyGithub's retry log reaches the job log


def test_an_oversize_comment_is_truncated_visibly(tmp_path: Path, github: GitHubServer) -> None:
    workspace = tmp_path / "ws"
    for seed in range(20):
        write_fixture(workspace / "runs" / f"s{seed:02d}", "tier-2-seed-7", many_violations(400))
    result = run_action(
        workspace, github, step="publish", scorecards="runs/*/scorecard.json", check_run="false"
    )
    assert result.code == 1, result.stdout + result.stderr
    (comment,) = ours(github)  # the server answers 422 to a body over 65536 characters
    assert github_length(comment["body"]) <= COMMENT_MAX
    assert "Truncated: details of" in comment["body"]
    assert comment["body"].count("| tier-2, seed 7 |") == 20


def test_an_oversize_check_run_is_truncated_visibly(tmp_path: Path, github: GitHubServer) -> None:
    workspace = tmp_path / "ws"

    def oversize(document: dict[str, Any]) -> None:
        many_violations(600)(document)
        for requirement in document["requirements"]:
            requirement["title"] = "a long title " * 1000

    path = write_fixture(workspace / "run", "tier-2-seed-7", oversize)
    # A Markdown file beside the scorecard is never published: the text is rendered again.
    path.with_suffix(".md").write_text("<b>INJECTED</b>\n")
    result = run_action(workspace, github, step="publish", scorecards=str(path), comment_mode="off")
    assert result.code == 1, result.stdout + result.stderr
    (run,) = github.repos[REPO].check_runs.values()
    assert "105 of 605 annotations were left out" in run["output"]["summary"]
    assert len(github.repos[REPO].annotations[run["id"]]) == 500  # 10 requests of 50
    assert "Truncated to GitHub's 65,535-character limit" in run["output"]["text"]
    assert "INJECTED" not in run["output"]["text"] + run["output"]["summary"]
    assert ours(github) == []


def test_push_to_main_then_a_pull_request_shows_the_delta(
    tmp_path: Path, github: GitHubServer
) -> None:
    base_ws, pr_ws = tmp_path / "base", tmp_path / "pr"
    base_path = write_fixture(base_ws / "run", "tier-2-seed-7-base")
    github.add_commit(REPO, "main", "c" * 40)
    pushed = run_action(
        base_ws,
        github,
        step="publish",
        scorecards=str(base_path),
        event_name="push",
        event=push_event(github),  # main moved to ccc...
    )
    assert pushed.code == 1 and pushed.outputs["comment_url"] == ""
    # GITHUB_SHA is the pushed commit for a push event; the test env gives MERGE, so move it.
    (run,) = github.repos[REPO].check_runs.values()
    run["head_sha"] = "c" * 40
    path = write_fixture(pr_ws / "run", "tier-2-seed-7")
    result = run_action(pr_ws, github, step="publish", scorecards=str(path))
    (comment,) = ours(github)
    assert "0.0% (▼ 62.5) | 75.0% (▲ 12.5)" in comment["body"]
    assert "against `main` at `ccccccc`" in comment["body"]
    assert "Newly retained since the base: `SHIP-2`" in comment["body"]
    assert result.code == 1


def test_the_workflow_run_recipe_publishes_a_fork_pull_request(
    tmp_path: Path, github: GitHubServer
) -> None:
    github.add_pull(REPO, 21, "e" * 40, fork="fork/agent")
    workspace = tmp_path / "ws"
    path = write_fixture(workspace / "artifact", "tier-1-seed-3")
    event = workflow_run_event(github, 21)  # a fork's pull request: not in `pull_requests`
    result = run_action(
        workspace,
        github,
        step="publish",
        scorecards=str(path),
        event_name="workflow_run",
        event=event,
        pull_request="21",
        commit="e" * 40,
    )
    assert result.code == 0, result.stdout + result.stderr
    (comment,) = ours(github)
    assert comment["_issue"] == 21
    assert next(iter(github.repos[REPO].check_runs.values()))["head_sha"] == "e" * 40


def test_bad_inputs_exit_2_with_every_problem_annotated(
    tmp_path: Path, github: GitHubServer
) -> None:
    result = run_action(tmp_path / "ws", github, step="prepare", seed="x", fail_on="sometimes")
    assert result.code == 2
    errors = [line for line in result.stdout.splitlines() if line.startswith("::error")]
    assert len(errors) == 4  # tier, agent, seed, fail_on
    assert any("fail_on (INPUT_FAIL_ON)" in e and "not_passed, gate, never" in e for e in errors)
    assert github.requests == []


def test_a_missing_scorecard_is_bad_input(tmp_path: Path, github: GitHubServer) -> None:
    result = run_action(tmp_path / "ws", github, step="publish", scorecards="nowhere/*.json")
    assert result.code == 2 and "no scorecard matched nowhere/*.json" in result.stdout


def test_an_api_that_cannot_serve_the_repository_is_an_infrastructure_failure(
    tmp_path: Path, github: GitHubServer
) -> None:
    # (Retries running out end the same way; tests/unit/publish/test_github.py shows it.)
    workspace = tmp_path / "ws"
    path = write_fixture(workspace / "run", "tier-1-seed-3")
    del github.repos[REPO]
    result = run_action(workspace, github, step="publish", scorecards=str(path))
    assert result.code == 3
    assert "reading repository octo/agent: HTTP 404: Not Found" in result.stdout


def test_the_bot_step_answers_a_command_and_says_what_to_run(
    tmp_path: Path, github: GitHubServer
) -> None:
    github.repos[REPO].collaborators["dev"] = "write"
    event = comment_event(github, "/specsnap run tier=2 seed=7", login="dev")
    result = run_action(
        tmp_path / "ws", github, step="bot", event_name="issue_comment", event=event
    )
    assert result.code == 0, result.stdout + result.stderr
    expected = {"run": "true", "bot_outcome": "started", "tier": "tier-2", "seed": "7"}
    assert {k: result.outputs[k] for k in expected} == expected
    assert result.outputs["pull_request"] == "12" and result.outputs["commit"] == HEAD
    assert [r["content"] for r in github.repos[REPO].reactions] == ["rocket"]
    reply = list(github.repos[REPO].comments.values())[-1]
    assert "(https://github.example/octo/agent/actions/runs/4242)" in reply["body"]


def test_the_bot_step_ignores_other_comments(tmp_path: Path, github: GitHubServer) -> None:
    event = comment_event(github, "LGTM", login="dev")
    result = run_action(
        tmp_path / "ws", github, step="bot", event_name="issue_comment", event=event
    )
    assert result.code == 0 and result.outputs["run"] == "false"
    assert result.outputs["bot_outcome"] == "ignored"
