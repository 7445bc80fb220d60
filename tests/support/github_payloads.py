"""The resources the loopback GitHub answers with, built from GitHub's own examples.

GitHub's REST description (github_contract.py) carries an example of every resource; each builder
here starts from that example, points its URLs back at the loopback server (and its repository at
ours) and then sets the values the tests care about. So a response has every field GitHub's schema
requires, with realistic values, and the test's own values where they matter.
"""

from __future__ import annotations

import copy
import functools
import json
from typing import TYPE_CHECKING, Any

from tests.support import github_contract

if TYPE_CHECKING:
    from tests.support.github_server import GitHubServer

Json = dict[str, Any]

_EXAMPLE_REPO = "octocat/Hello-World"


@functools.cache
def _examples() -> Json:
    return github_contract.description().document["components"]["examples"]


def example(server: GitHubServer, name: str, full_name: str = _EXAMPLE_REPO) -> Json:
    """GitHub's example `name`, its URLs pointing at `server` and its repository at `full_name`."""
    if github_contract.available():
        return {}  # no description installed: only the fields the builders set
    text = json.dumps(copy.deepcopy(_examples()[name]["value"]))
    base = server.api_url
    text = text.replace("https://api.github.com", base)
    text = text.replace("https://github.com", server.html(""))
    text = text.replace(f'"{_EXAMPLE_REPO}"', f'"{full_name}"')
    text = text.replace(f"/{_EXAMPLE_REPO}", f"/{full_name}")
    value: Json = json.loads(text)
    return value


def user(server: GitHubServer, login: str, *, kind: str = "User", id: int = 77) -> Json:
    """A `simple-user` (a bot's login ends with `[bot]`)."""
    body = example(server, "simple-user")
    body.update(login=login, id=id, type="Bot" if login.endswith("[bot]") else kind)
    body["node_id"] = f"U_{id}"
    body["url"] = server.url(f"/users/{login}")
    body["html_url"] = server.html(f"/{login}")
    return body


def repository(server: GitHubServer, full_name: str, id: int, **fields: Any) -> Json:
    """A `full-repository` (GET /repos/{owner}/{repo}); `fields` override the example's."""
    owner, name = full_name.split("/")
    body = example(server, "full-repository", full_name)
    body.update(id=id, node_id=f"R_{id}", name=name, full_name=full_name)
    body["owner"] = user(server, owner, kind="Organization", id=1)
    body.update(url=server.url(f"/repos/{full_name}"), html_url=server.html(f"/{full_name}"))
    for key in ("organization", "parent", "source", "template_repository"):
        body.pop(key, None)  # a plain repository, no fork or template
    body.setdefault("has_discussions", False)
    body.update(fields)
    return body


def issue_comment(server: GitHubServer, full_name: str, number: int, comment_id: int) -> Json:
    body = example(server, "issue-comment", full_name)
    body.update(id=comment_id, node_id=f"IC_{comment_id}", author_association="NONE")
    body["issue_url"] = server.url(f"/repos/{full_name}/issues/{number}")
    body["url"] = server.url(f"/repos/{full_name}/issues/comments/{comment_id}")
    body["html_url"] = server.html(f"/{full_name}/pull/{number}#issuecomment-{comment_id}")
    body.pop("performed_via_github_app", None)
    return body


def issue(server: GitHubServer, full_name: str, number: int, **fields: Any) -> Json:
    """An issue; a pull request's issue links it under `pull_request`."""
    body = example(server, "issue", full_name)
    body.update(id=number * 10, node_id=f"I_{number}", number=number, comments=0)
    body["url"] = server.url(f"/repos/{full_name}/issues/{number}")
    body["html_url"] = server.html(f"/{full_name}/pull/{number}")
    body["comments_url"] = server.url(f"/repos/{full_name}/issues/{number}/comments")
    body["pull_request"] = {
        "url": server.url(f"/repos/{full_name}/pulls/{number}"),
        "html_url": server.html(f"/{full_name}/pull/{number}"),
        "diff_url": server.html(f"/{full_name}/pull/{number}.diff"),
        "patch_url": server.html(f"/{full_name}/pull/{number}.patch"),
    }
    body.update(fields)
    return body


def pull_request(server: GitHubServer, full_name: str, number: int, **fields: Any) -> Json:
    body = example(server, "pull-request", full_name)
    body.update(id=number * 100, node_id=f"PR_{number}", number=number)
    body["url"] = server.url(f"/repos/{full_name}/pulls/{number}")
    body["html_url"] = server.html(f"/{full_name}/pull/{number}")
    body["issue_url"] = server.url(f"/repos/{full_name}/issues/{number}")
    body.update(requested_reviewers=[], requested_teams=[], assignees=[], labels=[])
    body.update(fields)
    return body


def branch_end(server: GitHubServer, full_name: str, ref: str, sha: str, repo: Json) -> Json:
    """A pull request's `head` or `base`."""
    owner = full_name.split("/")[0]
    return {"label": f"{owner}:{ref}", "ref": ref, "sha": sha, "repo": repo,
            "user": user(server, owner, kind="Organization", id=1)}  # fmt: skip


def check_run(server: GitHubServer, full_name: str, run_id: int, **fields: Any) -> Json:
    body = example(server, "check-run", full_name)
    body.update(id=run_id, node_id=f"CR_{run_id}", pull_requests=[])
    body["url"] = server.url(f"/repos/{full_name}/check-runs/{run_id}")
    body["html_url"] = server.html(f"/{full_name}/runs/{run_id}")
    body["app"] = {**body.get("app", {}), "id": 15368, "slug": "github-actions",
                   "name": "GitHub Actions"}  # fmt: skip
    body.update(fields)
    return body


def reaction(server: GitHubServer, reaction_id: int, content: str, login: str) -> Json:
    body = example(server, "reaction")
    body.update(id=reaction_id, node_id=f"REA_{reaction_id}", content=content)
    body["user"] = user(server, login, id=41898282)
    return body


def permission(server: GitHubServer, login: str, legacy: str, role: str) -> Json:
    """`repository-collaborator-permission`: the legacy `permission` and the `role_name`."""
    name = "repository-collaborator-permission-response-if-user-has-admin-permissions"
    body = example(server, name)
    body.update(permission=legacy, role_name=role)
    body["user"] = {**user(server, login), "role_name": role}
    return body


def installation_token(server: GitHubServer, token: str, expires_at: str) -> Json:
    body = example(server, "installation-token")
    body.update(token=token, expires_at=expires_at, permissions={"issues": "write"})
    body.pop("repositories", None)
    body["repository_selection"] = "all"
    return body


def commit(server: GitHubServer, full_name: str, sha: str) -> Json:
    body = example(server, "commit-items", full_name)
    body = body[0] if isinstance(body, list) else body
    body.update(sha=sha, node_id=f"C_{sha[:7]}")
    body["url"] = server.url(f"/repos/{full_name}/commits/{sha}")
    body["html_url"] = server.html(f"/{full_name}/commit/{sha}")
    body["commit"] = {**body.get("commit", {}), "message": f"commit {sha[:7]}"}
    return body


def workflow(server: GitHubServer, full_name: str, **fields: Any) -> Json:
    """A `workflow`; the test gives at least `id`, `name` and `path`."""
    body = example(server, "workflow", full_name)
    body.update(fields, node_id=f"W_{fields['id']}")
    body["url"] = server.url(f"/repos/{full_name}/actions/workflows/{fields['id']}")
    body["html_url"] = server.html(f"/{full_name}/blob/main/{fields['path']}")
    return body
