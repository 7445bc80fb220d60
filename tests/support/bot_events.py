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


def push_event(github: GitHubServer, repo: str, branch: str, before: str, at: str) -> Json:
    """A `push` delivery: `branch` moved from `before` to its head on the server (its newest
    commit, see `GitHubServer.add_commit`) at `at`, one commit pushed by the repository's owner."""
    after = github.repos[repo].branches[branch][0]
    owner = repo.split("/")[0]
    person = {"name": owner, "email": f"{owner}@users.noreply.github.com", "username": owner}
    commit = {
        "id": after,
        "tree_id": after[::-1],
        "distinct": True,
        "message": f"commit {after[:7]}",
        "timestamp": at,
        "url": github.html(f"/{repo}/commit/{after}"),
        "author": person,
        "committer": person,
        "added": [],
        "removed": [],
        "modified": ["README.md"],
    }
    common = _common(github, repo, payloads.user(github, owner, kind="Organization", id=1))
    payload = {
        "ref": f"refs/heads/{branch}",
        "before": before,
        "after": after,
        "created": False,
        "deleted": False,
        "forced": False,
        "base_ref": None,
        "compare": github.html(f"/{repo}/compare/{before[:12]}...{after[:12]}"),
        "commits": [commit],
        "head_commit": commit,
        "pusher": {"name": owner, "email": person["email"]},
        **common,
    }
    return checked("push", payload, github.description)


def workflow_run_event(
    github: GitHubServer, repo: str, number: int, workflow: Json, at: str, *, run_id: int = 99
) -> Json:
    """A `workflow_run` delivery (`completed`, success): run `run_id` of `workflow` (`id`,
    `name`, `path`) that pull request `number`'s head triggered (event `pull_request`). A fork's
    pull request is left out of `pull_requests`, as GitHub leaves it out."""
    pull = github.repos[repo].pulls[number]
    head, base = pull["head"], pull["base"]
    fork = head["repo"]["full_name"] != base["repo"]["full_name"]
    run = payloads.example(github, "workflow-run", repo)
    run.pop("referenced_workflows", None)
    run.update(
        id=run_id,
        node_id=f"WFR_{run_id}",
        name=workflow["name"],
        path=workflow["path"],
        workflow_id=workflow["id"],
        event="pull_request",
        status="completed",
        conclusion="success",
        head_branch=head["ref"],
        head_sha=head["sha"],
        display_title=pull["title"],
        created_at=at,
        updated_at=at,
        run_started_at=at,
        actor=pull["user"],
        triggering_actor=pull["user"],
        repository=_repository_lite(github, repo),
        head_repository=_repository_lite(github, head["repo"]["full_name"]),
        pull_requests=[] if fork else [_pull_reference(pull)],
    )
    runs = f"/repos/{repo}/actions/runs/{run_id}"
    run.update(url=github.url(runs), html_url=github.html(f"/{repo}/actions/runs/{run_id}"))
    for key in ("jobs", "logs", "check_suite", "artifacts", "cancel", "rerun", "workflow"):
        run.pop(f"{key}_url", None)
    run.update(
        jobs_url=github.url(f"{runs}/jobs"),
        logs_url=github.url(f"{runs}/logs"),
        artifacts_url=github.url(f"{runs}/artifacts"),
        cancel_url=github.url(f"{runs}/cancel"),
        rerun_url=github.url(f"{runs}/rerun"),
        check_suite_url=github.url(f"/repos/{repo}/check-suites/{run['check_suite_id']}"),
        workflow_url=github.url(f"/repos/{repo}/actions/workflows/{workflow['id']}"),
        previous_attempt_url=None,
    )
    payload = {
        "action": "completed",
        "workflow": payloads.workflow(github, repo, **workflow),
        "workflow_run": run,
        **_common(github, repo, pull["user"]),
    }
    return checked("workflow_run", payload, github.description)


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


def _repository_lite(github: GitHubServer, full_name: str) -> Json:
    """The short repository a workflow run names (its `repository`, `head_repository`)."""
    keep = ("id", "node_id", "name", "full_name", "private", "owner", "html_url", "description",
            "fork", "url")  # fmt: skip
    full = github._repo_stub(full_name)
    lite = {key: full[key] for key in keep}
    lite.update({key: value for key, value in full.items() if key.endswith("_url")})
    return lite


def _pull_reference(pull: Json) -> Json:
    """A pull request as a workflow run lists it: number, URL, and its two ends' commits."""
    ends = {}
    for end in ("head", "base"):
        repo = {key: pull[end]["repo"][key] for key in ("id", "name", "url")}
        ends[end] = {"ref": pull[end]["ref"], "sha": pull[end]["sha"], "repo": repo}
    return {"id": pull["id"], "number": pull["number"], "url": pull["url"], **ends}


_REACTIONS = ("+1", "-1", "laugh", "confused", "heart", "hooray", "eyes", "rocket")


def _no_reactions(url: str) -> Json:
    """The `reactions` summary webhooks carry (the REST examples may omit it): none yet."""
    return {"url": f"{url}/reactions", "total_count": 0, **dict.fromkeys(_REACTIONS, 0)}
