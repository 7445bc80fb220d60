"""Negative controls for the loopback GitHub's contract (tests/support/github_contract.py): what
GitHub's description forbids is reported, naming the operation and the field; the same for the
webhook deliveries the bot tests send (tests/support/webhook_contract.py), naming the event."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import requests

from tests.support import bot_events, github_contract, webhook_contract
from tests.support.github_server import GitHubServer

pytestmark = pytest.mark.skipif(
    bool(github_contract.available()), reason=github_contract.available() or "installed"
)

CHECK_RUNS = "/repos/octo/agent/check-runs"
STAMP = "2026-05-01T12:00:00Z"
webhooks_installed = pytest.mark.skipif(
    bool(webhook_contract.available()), reason=webhook_contract.available() or "installed"
)


def test_a_check_run_with_an_unknown_conclusion_is_reported() -> None:
    body = {"name": "SpecSnap", "head_sha": "a" * 40, "status": "completed", "conclusion": "meh"}
    (problem,) = github_contract.description().check_request("POST", CHECK_RUNS, {}, body)
    assert problem.operation == "checks/create" and problem.field == "conclusion"
    assert "'meh' is not one of" in problem.message


def test_a_request_missing_a_required_field_is_reported() -> None:
    problems = github_contract.description().check_request("POST", CHECK_RUNS, {}, {"name": "x"})
    assert [(p.operation, p.where, p.field) for p in problems] == [
        ("checks/create", "request body", "head_sha")
    ]


def test_an_incomplete_response_is_reported_field_by_field() -> None:
    problems = github_contract.description().check_response(
        "POST", CHECK_RUNS, 201, {"id": 1, "name": "x"}
    )
    fields = {p.field for p in problems}
    assert {"head_sha", "node_id", "html_url", "app"} <= fields
    assert all(p.operation == "checks/create" and p.where == "response 201" for p in problems)


def test_an_operation_github_does_not_have_is_reported() -> None:
    (problem,) = github_contract.description().check_request("POST", "/repos/o/r/teleport", {}, {})
    assert "no such operation" in problem.message


def test_run_details_are_a_violation_only_in_ghes_317_mode() -> None:
    path = "/repos/octo/agent/actions/workflows/specsnap.yml/dispatches"
    details = {"workflow_run_id": 1, "run_url": "http://x", "html_url": "http://x"}
    assert github_contract.description().check_response("POST", path, 200, details) == []
    (problem,) = github_contract.description("ghes-3.17").check_response("POST", path, 200, details)
    assert problem.operation == "actions/create-workflow-dispatch"
    assert "status 200 is not one the operation declares" in problem.message


def test_the_server_refuses_and_records_a_request_github_would_refuse() -> None:
    """Through the real server: the bad request gets 422, and leaving `with` fails the test."""
    server = GitHubServer(lifetime=30)
    broken = pytest.raises(AssertionError, match=r"checks/create: request body at conclusion")
    with broken, server:
        server.add_repo("octo/agent")
        server.add_token("t", write=True)
        body = {"name": "x", "head_sha": "a" * 40, "status": "completed", "conclusion": "meh"}
        answer = requests.post(
            server.url(CHECK_RUNS), json=body, headers={"Authorization": "token t"}, timeout=10
        )
        assert answer.status_code == 422
    assert server.repos["octo/agent"].check_runs == {}


def test_the_servers_own_responses_keep_the_contract() -> None:
    with GitHubServer(lifetime=30) as server:
        server.add_repo("octo/agent")
        server.add_pull("octo/agent", 12, "a" * 40)
        server.add_check_run("octo/agent", "a" * 40, "SpecSnap", "summary")
        server.add_token("t", write=True)
        for path in ("/repos/octo/agent", "/repos/octo/agent/pulls/12", CHECK_RUNS + "/1004"):
            answer = requests.get(
                server.url(path), headers={"Authorization": "token t"}, timeout=10
            )
            assert answer.status_code in (200, 404), path
    assert server.violations == []


# -- webhook deliveries (tests/support/webhook_contract.py, tests/support/bot_events.py) -----


@pytest.fixture(scope="module")
def pull_12() -> Iterator[GitHubServer]:
    with GitHubServer(lifetime=60) as server:
        server.add_repo("octo/agent")
        server.add_pull("octo/agent", 12, "a" * 40)
        yield server


def comment_delivery(server: GitHubServer, action: str = "created") -> dict[str, Any]:
    posted = server.add_comment("octo/agent", 12, "/specsnap run", login="dev")
    return bot_events.comment_event(server, "octo/agent", 12, posted, STAMP, action=action)


@webhooks_installed
def test_a_comment_delivery_without_its_author_is_reported(pull_12: GitHubServer) -> None:
    payload = comment_delivery(pull_12)
    del payload["comment"]["user"]
    (problem,) = webhook_contract.description().check("issue_comment", payload)
    assert (problem.event, problem.field) == ("issue_comment.created", "comment.user")
    assert "'user' is a required property" in problem.message


@webhooks_installed
def test_a_comment_id_of_the_wrong_type_is_reported(pull_12: GitHubServer) -> None:
    payload = comment_delivery(pull_12)
    payload["comment"]["id"] = str(payload["comment"]["id"])
    (problem,) = webhook_contract.description().check("issue_comment", payload)
    assert problem.field == "comment.id" and "is not of type 'integer'" in problem.message


@webhooks_installed
def test_the_builder_refuses_to_hand_out_a_delivery_github_would_not_send(
    pull_12: GitHubServer,
) -> None:
    payload = comment_delivery(pull_12)
    del payload["sender"]
    with pytest.raises(AssertionError, match=r"issue_comment\.created delivery at sender: "):
        bot_events.checked("issue_comment", payload)
    unknown = {"action": "teleported"}
    (problem,) = webhook_contract.description().check("issue_comment", unknown)
    assert "no such webhook" in problem.message


@webhooks_installed
def test_the_builders_deliveries_keep_the_contract(pull_12: GitHubServer) -> None:
    comments = [comment_delivery(pull_12, action) for action in ("created", "edited")]
    pulls = [
        bot_events.pull_request_event(pull_12, "octo/agent", 12, "b" * 40, STAMP, action)
        for action in ("opened", "synchronize", "closed")
    ]
    deliveries = [("issue_comment", p) for p in comments] + [("pull_request", p) for p in pulls]
    for event, payload in deliveries:
        assert webhook_contract.description().check(event, payload) == [], event
    assert pulls[1]["pull_request"]["head"]["sha"] == pulls[1]["after"] == "b" * 40
    assert comments[1]["changes"] == {"body": {"from": ""}}
