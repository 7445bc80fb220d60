"""Webhook deliveries as GitHub sends them to the bot, for the tests that play them.

Each delivery has every field GitHub's webhook schema requires for its event and action, built
from the loopback GitHub's own resources (github_payloads.py, from GitHub's REST examples: the
user, repository, issue, pull request and comment the REST API answers with) and the test's own
values, and it is checked against that schema (webhook_contract.py) before a test can send it:
a delivery GitHub would never send fails the test that builds it.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from tests.support import github_payloads as payloads
from tests.support import webhook_contract
from tests.support.github_contract import API_GITHUB_COM
from tests.support.github_server import GitHubServer

Json = dict[str, Any]

#: The installation the bot tests' GitHub App is installed as.
INSTALLATION = 31


def comment_event(
    github: GitHubServer,
    repo: str,
    number: int,
    posted: Json,
    at: str,
    *,
    action: str = "created",
) -> Json:
    """An `issue_comment` delivery for the comment `posted` (as the loopback GitHub stored it)
    on pull request `number`, written at `at` (ISO 8601, UTC) by its author; `edited` says the
    body was empty before."""
    comment = {key: value for key, value in copy.deepcopy(posted).items() if key[0] != "_"}
    comment.update(created_at=at, updated_at=at, performed_via_github_app=None)
    comment.setdefault("reactions", _no_reactions(comment["url"]))
    issue = copy.deepcopy(github.repos[repo].issues[number])
    issue.setdefault("reactions", _no_reactions(issue["url"]))
    issue.setdefault("active_lock_reason", None)
    payload = {
        "action": action,
        "issue": issue,
        "comment": comment,
        **_common(github, repo, comment["user"]),
    }
    if action == "edited":
        payload["changes"] = {"body": {"from": ""}}
    return checked("issue_comment", payload, github.description)


def pull_request_event(
    github: GitHubServer, repo: str, number: int, head: str, at: str, action: str = "synchronize"
) -> Json:
    """A `pull_request` delivery: pull request `number`'s head became `head` at `at` (`opened`,
    `reopened` or `synchronize`; any other action leaves the head as the server has it)."""
    pull = copy.deepcopy(github.repos[repo].pulls[number])
    before = pull["head"]["sha"]
    pull["updated_at"] = at
    if action in ("opened", "reopened", "synchronize"):
        pull["head"]["sha"] = head
    payload = {"action": action, "number": number, "pull_request": pull}
    payload.update(_common(github, repo, pull["user"]))
    if action == "synchronize":
        payload.update(before=before, after=head)
    return checked("pull_request", payload, github.description)


def detached_comment_event(
    repo: str, number: int, body: str, at: str, *, comment_id: int = 1, action: str = "created"
) -> Json:
    """An `issue_comment` delivery of comment `comment_id` by `dev`, for the tests of the
    receiver's parts that never call GitHub back: the loopback GitHub it was built from is gone."""
    with detached(repo, number) as github:
        posted = payloads.issue_comment(github, repo, number, comment_id)
        posted.update(body=body, user=payloads.user(github, "dev", id=41898282))
        return comment_event(github, repo, number, posted, at, action=action)


def detached_pull_request_event(
    repo: str, number: int, head: str, at: str, action: str = "synchronize"
) -> Json:
    """`pull_request_event` for the tests that never call GitHub back (see above)."""
    with detached(repo, number) as github:
        return pull_request_event(github, repo, number, head, at, action)


@contextmanager
def detached(repo: str, number: int) -> Iterator[GitHubServer]:
    """A loopback GitHub holding pull request `number` of `repo`, to build deliveries from."""
    with GitHubServer(lifetime=30) as github:
        github.add_repo(repo)
        github.add_pull(repo, number, "0" * 40)
        yield github


def checked(event: str, payload: Json, description: str = API_GITHUB_COM) -> Json:
    """`payload`, once the schema for `event` in GitHub's `description` (the one the loopback
    GitHub plays: api.github.com, or a GHES) allows it; the test fails otherwise."""
    webhook_contract.require_valid(event, payload, description)
    return payload


def _common(github: GitHubServer, repo: str, sender: Json) -> Json:
    """The fields every delivery to the App carries: repository, sender and installation."""
    stored = github.repos[repo]
    repository = payloads.repository(github, repo, stored.id, default_branch=stored.default_branch)
    return {
        "repository": repository,
        "sender": sender,
        "installation": {"id": INSTALLATION, "node_id": f"MDIzOkludGVncmF0aW9u{INSTALLATION}"},
    }


_REACTIONS = ("+1", "-1", "laugh", "confused", "heart", "hooray", "eyes", "rocket")


def _no_reactions(url: str) -> Json:
    """The `reactions` summary webhooks carry (the REST examples may omit it): none yet."""
    return {"url": f"{url}/reactions", "total_count": 0, **dict.fromkeys(_REACTIONS, 0)}
