"""Negative controls for the loopback GitHub's contract (tests/support/github_contract.py): what
GitHub's description forbids is reported, naming the operation and the field; the same for the
webhook deliveries the bot tests send (tests/support/webhook_contract.py), naming the event, and
for the event payloads the Action's tests hand the Action (tests/support/action_runner.py). Each
GHES version SpecSnap supports is played against its own description."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
import requests

from specsnap.publish.target import target_from_event
from tests.support import action_runner, bot_events, github_contract, webhook_contract
from tests.support.github_contract import API_GITHUB_COM, GHES_VERSIONS
from tests.support.github_routes import ROUTES
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


DISPATCH = "/repos/octo/agent/actions/workflows/specsnap.yml/dispatches"
RUN_DETAILS = {"workflow_run_id": 1, "run_url": "http://x", "html_url": "http://x"}


def test_run_details_are_answered_by_api_github_com() -> None:
    contract = github_contract.description()
    assert contract.returns_run_details()
    assert contract.check_response("POST", DISPATCH, 200, RUN_DETAILS) == []


@pytest.mark.parametrize("version", GHES_VERSIONS)
def test_run_details_are_a_violation_only_in_ghes_mode(version: str) -> None:
    """What each GHES description says of workflow dispatch: `return_run_details` is not a
    field of its body (nor is it refused: the body schema allows other fields, so asking costs
    nothing), and 204 with no body is the only answer. The same in 3.17, 3.18 and 3.19."""
    contract = github_contract.description(github_contract.ghes(version))
    assert not contract.returns_run_details()
    asked = {"ref": "main", "inputs": {"tier": "tier-2"}, "return_run_details": True}
    assert contract.check_request("POST", DISPATCH, {}, asked) == []
    assert contract.check_response("POST", DISPATCH, 204, None) == []
    (problem,) = contract.check_response("POST", DISPATCH, 200, RUN_DETAILS)
    assert problem.operation == "actions/create-workflow-dispatch"
    assert "status 200 is not one the operation declares (['204'])" in problem.message


@pytest.mark.parametrize("name", [API_GITHUB_COM, *map(github_contract.ghes, GHES_VERSIONS)])
def test_every_endpoint_the_loopback_serves_is_in_every_claimed_description(name: str) -> None:
    """Each route of the loopback GitHub (the REST calls SpecSnap makes) is an operation of
    api.github.com and of each GHES version's description."""
    contract = github_contract.description(name)
    missing = []
    for method, pattern, _ in ROUTES:
        path = pattern.pattern.replace("(?P<repo>[^/]+/[^/]+)", "octo/agent")
        path = re.sub(r"\(\?P<\w+>\[\^/\]\+\)", "1", path)
        assert "(" not in path, path  # every parameter was given a value
        if contract.operation(method, path) is None:
            missing.append(f"{method} {path}")
    assert missing == []


def test_only_the_ghes_versions_specsnap_supports_can_be_played() -> None:
    with pytest.raises(ValueError, match=r"GHES 3\.16 is not one SpecSnap supports"):
        GitHubServer(ghes="3.16")
    assert GitHubServer(ghes="3.19").description == "ghes-3.19"
    assert GitHubServer().description == API_GITHUB_COM


@pytest.mark.parametrize("version", [None, *GHES_VERSIONS])
def test_the_server_answers_a_dispatch_as_the_version_it_plays(version: str | None) -> None:
    """Through the real server: the run's details on api.github.com, 204 and no body on each
    GHES; every exchange recorded as held to that version's description."""
    with GitHubServer(prefix="/api/v3", lifetime=30, ghes=version) as server:
        repo = server.add_repo("octo/agent")
        repo.workflows["specsnap.yml"] = {"id": 9, "name": "SpecSnap", "path": "w.yml"}
        server.add_token("t", write=True)
        answer = requests.post(
            server.url(DISPATCH),
            json={"ref": "main", "inputs": {}, "return_run_details": True},
            headers={"Authorization": "token t"},
            timeout=10,
        )
    if version is None:
        assert answer.status_code == 200 and answer.json()["workflow_run_id"] > 0
    else:
        assert answer.status_code == 204 and answer.content == b""
    held_to = API_GITHUB_COM if version is None else f"ghes-{version}"
    assert server.descriptions_held_to() == {held_to} and server.violations == []


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


@webhooks_installed
@pytest.mark.parametrize("version", GHES_VERSIONS)
def test_the_builders_deliveries_keep_each_ghes_contract(version: str) -> None:
    """The deliveries the bot's GHES tests send, held to that version's webhook schema."""
    with GitHubServer(lifetime=30, ghes=version) as server:
        server.add_repo("octo/agent")
        server.add_pull("octo/agent", 12, "a" * 40)
        comment = comment_delivery(server)
        pull = bot_events.pull_request_event(server, "octo/agent", 12, "b" * 40, STAMP)
    webhooks = webhook_contract.description(f"ghes-{version}")
    assert webhooks.check("issue_comment", comment) == []
    assert webhooks.check("pull_request", pull) == []


# -- the Action's event payloads (tests/support/action_runner.py) ----------------------------


@pytest.fixture(scope="module")
def action_github() -> Iterator[GitHubServer]:
    """The Action tests' loopback GitHub, with what their events speak of: `main` pushed to
    ccc..., and fork pull request 21 at eee..."""
    with action_runner.github_api(lifetime=60) as server:
        server.add_commit(action_runner.REPO, "main", "c" * 40)
        server.add_pull(action_runner.REPO, 21, "e" * 40, fork="fork/agent")
        yield server


def action_events(server: GitHubServer) -> dict[str, tuple[str, dict[str, Any]]]:
    """Every kind of event the Action's tests (test_action.py, test_action_steps.py, the Docker
    plays) hand the Action, by what it is."""
    return {
        "pull request (run_action's default)": ("pull_request", action_runner.pull_request_event()),
        "fork pull request": ("pull_request", action_runner.pull_request_event("fork/agent")),
        "pull request on the server": (
            "pull_request",
            action_runner.pull_request_event(github=server),
        ),
        "command": ("issue_comment", action_runner.comment_event(server, "/specsnap run tier=2")),
        "push to main": ("push", action_runner.push_event(server)),
        "fork recipe": ("workflow_run", action_runner.workflow_run_event(server, 21)),
    }


@webhooks_installed
def test_every_event_the_actions_tests_hand_the_action_is_schema_valid(
    action_github: GitHubServer,
) -> None:
    """Each event keeps GitHub's webhook schema for its event and action, and says to the Action
    (specsnap.publish.target) what the test means it to say."""
    events = action_events(action_github)
    for what, (event, payload) in events.items():
        assert webhook_contract.description().check(event, payload) == [], what
        assert "installation" not in payload, what  # a workflow's event, not an App's delivery
    repo, merge = action_runner.REPO, action_runner.MERGE
    targets = {what: target_from_event(event, payload, repo, merge)
               for what, (event, payload) in events.items()}  # fmt: skip
    ours = targets["pull request (run_action's default)"]
    assert (ours.pull_request, ours.head_sha, ours.base_ref) == (12, action_runner.HEAD, "main")
    assert ours.read_only_reason is None and ours == targets["pull request on the server"]
    assert "comes from a fork" in (targets["fork pull request"].read_only_reason or "")
    assert targets["command"].pull_request == 12
    push = events["push to main"][1]
    assert (push["ref"], push["before"], push["after"]) == ("refs/heads/main", "b" * 40, "c" * 40)
    assert targets["push to main"].head_sha == merge  # on a push, the Action reads GITHUB_SHA
    fork_run = targets["fork recipe"]
    assert (fork_run.pull_request, fork_run.head_sha) == (None, "e" * 40)
    assert fork_run.head_label == "fork:feature"


@webhooks_installed
def test_a_broken_action_event_fails_validation(action_github: GitHubServer) -> None:
    """Negative controls: an event missing what GitHub always sends is refused before the
    Action could be handed it, and the hand-written events the tests used before fail too."""
    payload = action_runner.pull_request_event()
    del payload["pull_request"]["head"]["sha"]
    with pytest.raises(AssertionError, match=r"pull_request\.synchronize delivery at "
                       r"pull_request\.head\.sha: 'sha' is a required property"):  # fmt: skip
        action_runner.for_the_action("pull_request", payload)
    comment = action_runner.comment_event(action_github, "/specsnap help")
    comment["issue"]["number"] = "12"
    problems = webhook_contract.description().check("issue_comment", comment)
    wrong = ("issue.number", "'12' is not of type 'integer'")  # (said once per allOf branch)
    assert problems and {(p.field, p.message) for p in problems} == {wrong}
    hand_written = {
        "action": "created",
        "issue": {"number": 12, "pull_request": {"url": "x"}},
        "comment": {"id": 1, "body": "LGTM", "user": {"login": "dev"}},
        "repository": {"full_name": action_runner.REPO},
    }
    fields = {p.field for p in webhook_contract.description().check("issue_comment", hand_written)}
    assert {"sender", "comment.created_at", "issue.title", "repository.owner"} <= fields
