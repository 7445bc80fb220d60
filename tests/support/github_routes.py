"""The REST endpoints of the loopback GitHub API (see github_server.py), one function each.

Each takes the parsed request and answers (status, extra headers, JSON body) with the shapes,
validation and error messages GitHub's REST API documents for that endpoint.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from urllib.parse import urlencode

from tests.support import github_payloads as payloads

if TYPE_CHECKING:
    from tests.support.github_server import GitHubServer, Repo

Json = dict[str, Any]
Response = tuple[int, Json, Any]

COMMENT_MAX = 65536
CHECK_OUTPUT_MAX = 65535
ANNOTATIONS_PER_REQUEST = 50


@dataclass
class Request:
    server: GitHubServer
    repo: Repo | None
    params: dict[str, str]
    query: dict[str, list[str]]
    body: Any
    auth: Json
    path: str

    @property
    def r(self) -> Repo:
        assert self.repo is not None
        return self.repo

    def q(self, name: str, default: str = "") -> str:
        return self.query.get(name, [default])[0]


def _get_repo(req: Request) -> Response:
    repo = req.r
    return 200, {}, req.server._repo_stub(repo.full_name)


def _get_issue(req: Request) -> Response:
    number = int(req.params["number"])
    issue = req.r.issues.get(number)
    if issue is None:
        return 404, {}, not_found()
    return 200, {}, issue


def _list_comments(req: Request) -> Response:
    number = int(req.params["number"])
    if number not in req.r.issues:
        return 404, {}, not_found()
    comments = [_public(c) for c in req.r.comments.values() if c["_issue"] == number]
    return _paginate(req, comments)


def _create_comment(req: Request) -> Response:
    number = int(req.params["number"])
    if number not in req.r.issues:
        return 404, {}, not_found()
    problem = _check_body(req.body)
    if problem:
        return problem
    comment = req.server._create_comment(req.r, number, req.body["body"], req.auth["login"])
    return 201, {"Location": comment["url"]}, _public(comment)


def _get_comment(req: Request) -> Response:
    comment = req.r.comments.get(int(req.params["id"]))
    return (200, {}, _public(comment)) if comment else (404, {}, not_found())


def _edit_comment(req: Request) -> Response:
    comment = req.r.comments.get(int(req.params["id"]))
    if comment is None:
        return 404, {}, not_found()
    problem = _check_body(req.body)
    if problem:
        return problem
    comment["body"] = req.body["body"]
    comment["updated_at"] = now()
    return 200, {}, _public(comment)


def _delete_comment(req: Request) -> Response:
    if req.r.comments.pop(int(req.params["id"]), None) is None:
        return 404, {}, not_found()
    return 204, {}, None


def _create_reaction(req: Request) -> Response:
    comment_id = int(req.params["id"])
    content = (req.body or {}).get("content")
    allowed = ("+1", "-1", "laugh", "confused", "heart", "hooray", "rocket", "eyes")
    if comment_id not in req.r.comments:
        return 404, {}, not_found()
    if content not in allowed:
        return _invalid("Reaction", "content", f"content is not included in the list: {content}")
    reaction = payloads.reaction(req.server, req.server.new_id(), content, req.auth["login"])
    req.r.reactions.append(reaction)
    return 201, {}, reaction


def _get_pull(req: Request) -> Response:
    pull = req.r.pulls.get(int(req.params["number"]))
    if pull is None:
        return 404, {}, not_found()
    return 200, {}, pull


def _list_pulls(req: Request) -> Response:
    """`GET /repos/{repo}/pulls`, filtered by `state` and `head` (`owner:branch`) as GitHub does."""
    state = req.q("state", "open")
    head = req.q("head")
    pulls = []
    for number in sorted(req.r.pulls):
        pull = req.r.pulls[number]
        owner = pull["head"]["repo"]["owner"]["login"]
        if state != "all" and pull["state"] != state:
            continue
        if head and head != f"{owner}:{pull['head']['ref']}":
            continue
        pulls.append(_get_pull(Request(req.server, req.r, {"number": str(number)}, {}, None,
                                       req.auth, req.path))[2])  # fmt: skip
    return _paginate(req, pulls)


def _validate_output(output: Any) -> Response | None:
    if output is None:
        return None
    if not isinstance(output, dict) or "title" not in output or "summary" not in output:
        return _invalid("CheckRun", "output", "output must have title and summary")
    for key in ("summary", "text"):
        value = output.get(key) or ""
        if len(value.encode("utf-16-le")) // 2 > CHECK_OUTPUT_MAX:
            return _invalid("CheckRun", key, f"{key} is too long (maximum is 65535 characters)")
    annotations = output.get("annotations") or []
    if len(annotations) > ANNOTATIONS_PER_REQUEST:
        return _invalid("CheckRun", "annotations", "Only 50 annotations are allowed per request")
    for a in annotations:
        missing = {"path", "start_line", "end_line", "annotation_level", "message"} - a.keys()
        if missing or a["annotation_level"] not in ("notice", "warning", "failure"):
            return _invalid("CheckRun", "annotations", f"invalid annotation: {sorted(missing)}")
        if len(a.get("title") or "") > 255:
            return _invalid("CheckRun", "annotations", "title is too long (maximum is 255)")
    return None


def _create_check_run(req: Request) -> Response:
    body = req.body or {}
    if not body.get("name") or not body.get("head_sha"):
        return _invalid("CheckRun", "name", "name and head_sha are required")
    if body.get("status") == "completed" and not body.get("conclusion"):
        return _invalid("CheckRun", "conclusion", "conclusion is required when completed")
    problem = _validate_output(body.get("output"))
    if problem:
        return problem
    run = req.server._create_check_run(req.r, body)
    return 201, {}, run


def _update_check_run(req: Request) -> Response:
    run_id = int(req.params["id"])
    run = req.r.check_runs.get(run_id)
    if run is None:
        return 404, {}, not_found()
    body = req.body or {}
    problem = _validate_output(body.get("output"))
    if problem:
        return problem
    for key in ("name", "status", "conclusion", "details_url", "completed_at"):
        if key in body:
            run[key] = body[key]
    output = body.get("output")
    if output:
        for key in ("title", "summary", "text"):
            if key in output:
                run["output"][key] = output[key]
        req.server._add_annotations(req.r, run_id, output.get("annotations") or [])
    req.r.check_run_log.append((run_id, run["status"], run["output"]["summary"] or ""))
    return 200, {}, run


def _get_check_run(req: Request) -> Response:
    run = req.r.check_runs.get(int(req.params["id"]))
    return (200, {}, run) if run is not None else (404, {}, not_found())


def _list_annotations(req: Request) -> Response:
    run_id = int(req.params["id"])
    if run_id not in req.r.check_runs:
        return 404, {}, not_found()
    return _paginate(req, req.r.annotations[run_id])


def _list_commits(req: Request) -> Response:
    ref = req.q("sha", req.r.default_branch)
    shas = req.r.branches.get(ref)
    if shas is None:
        return 404, {}, {"message": "No commit found for SHA: " + ref}
    commits = [payloads.commit(req.server, req.r.full_name, sha) for sha in shas]
    return _paginate(req, commits)


def _commit_check_runs(req: Request) -> Response:
    ref = req.params["ref"]
    sha = (req.r.branches.get(ref) or [ref])[0]
    runs = [r for r in req.r.check_runs.values() if r["head_sha"] == sha]
    if req.q("check_name"):
        runs = [r for r in runs if r["name"] == req.q("check_name")]
    if req.q("status"):
        runs = [r for r in runs if r["status"] == req.q("status")]
    if req.q("filter", "latest") == "latest":
        latest: dict[str, Json] = {}
        for run in runs:
            latest[run["name"]] = run  # later ids win
        runs = list(latest.values())
    runs.sort(key=lambda r: -int(r["id"]))
    status, headers, page = _paginate(req, runs)
    return status, headers, {"total_count": len(runs), "check_runs": page}


def _collaborator_permission(req: Request) -> Response:
    login = req.params["user"]
    permission = req.r.collaborators.get(login)
    if permission is None:
        if login.startswith("ghost"):
            return 404, {}, not_found()
        permission = "read" if not req.r.private else "none"
    # The legacy `permission` field folds the newer roles in: maintain reads as write,
    # triage as read ("Get repository permissions for a user"); `role_name` keeps the role.
    legacy = {"maintain": "write", "triage": "read"}
    body = payloads.permission(req.server, login, legacy.get(permission, permission), permission)
    return 200, {}, body


def _workflow(req: Request) -> Json | None:
    """The workflow named by its file name or, as in its `url`, by its id."""
    wanted = req.params["workflow"]
    for name, workflow in req.r.workflows.items():
        if wanted in (name, str(workflow.get("id"))):
            return workflow
    return None


def _get_workflow(req: Request) -> Response:
    workflow = _workflow(req)
    if workflow is None:
        return 404, {}, not_found()
    return 200, {}, payloads.workflow(req.server, req.r.full_name, **workflow)


def _dispatch_workflow(req: Request) -> Response:
    workflow = _workflow(req)
    if workflow is None:
        return 404, {}, not_found()
    body = req.body or {}
    if not body.get("ref"):
        return _invalid("Workflow", "ref", "ref is required")
    req.r.dispatches.append({"workflow": req.params["workflow"], **body})
    if body.get("return_run_details") and req.server.run_details:
        run_id = req.server.new_id()
        full = req.r.full_name
        return (
            200,
            {},
            {
                "workflow_run_id": run_id,
                "run_url": req.server.url(f"/repos/{full}/actions/runs/{run_id}"),
                "html_url": req.server.html(f"/{full}/actions/runs/{run_id}"),
            },
        )
    return 204, {}, None


def _installation_token(req: Request) -> Response:
    if not req.auth.get("app"):
        return 401, {}, {"message": "A JSON web token could not be decoded"}
    token = f"ghs_installation{req.params['installation']}"
    req.server.add_token(token, login="specsnap[bot]", write=True)
    expires = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(time.time() + 3600))
    return 201, {}, payloads.installation_token(req.server, token, expires)


def _route(
    method: str, pattern: str, handler: Callable[[Request], Response]
) -> tuple[str, re.Pattern[str], Callable[[Request], Response]]:
    regex = pattern.replace("{repo}", r"(?P<repo>[^/]+/[^/]+)")
    regex = re.sub(r"\{(\w+)\}", r"(?P<\1>[^/]+)", regex)
    return method, re.compile(regex), handler


ROUTES = [
    _route("GET", "/repos/{repo}", _get_repo),
    _route("GET", "/repos/{repo}/issues/{number}", _get_issue),
    _route("GET", "/repos/{repo}/issues/{number}/comments", _list_comments),
    _route("POST", "/repos/{repo}/issues/{number}/comments", _create_comment),
    _route("GET", "/repos/{repo}/issues/comments/{id}", _get_comment),
    _route("PATCH", "/repos/{repo}/issues/comments/{id}", _edit_comment),
    _route("DELETE", "/repos/{repo}/issues/comments/{id}", _delete_comment),
    _route("POST", "/repos/{repo}/issues/comments/{id}/reactions", _create_reaction),
    _route("GET", "/repos/{repo}/pulls", _list_pulls),
    _route("GET", "/repos/{repo}/pulls/{number}", _get_pull),
    _route("POST", "/repos/{repo}/check-runs", _create_check_run),
    _route("GET", "/repos/{repo}/check-runs/{id}", _get_check_run),
    _route("PATCH", "/repos/{repo}/check-runs/{id}", _update_check_run),
    _route("GET", "/repos/{repo}/check-runs/{id}/annotations", _list_annotations),
    _route("GET", "/repos/{repo}/commits", _list_commits),
    _route("GET", "/repos/{repo}/commits/{ref}/check-runs", _commit_check_runs),
    _route("GET", "/repos/{repo}/collaborators/{user}/permission", _collaborator_permission),
    _route("GET", "/repos/{repo}/actions/workflows/{workflow}", _get_workflow),
    _route("POST", "/repos/{repo}/actions/workflows/{workflow}/dispatches", _dispatch_workflow),
    _route("POST", "/app/installations/{installation}/access_tokens", _installation_token),
]


def _paginate(req: Request, items: list[Any]) -> Response:
    per_page = max(1, min(100, int(req.q("per_page", "30"))))
    page = max(1, int(req.q("page", "1")))
    last = max(1, -(-len(items) // per_page))
    chunk = items[(page - 1) * per_page : page * per_page]
    headers: Json = {}
    if page < last:
        base = {k: v[0] for k, v in req.query.items()}
        links = []
        for rel, number in (("next", page + 1), ("last", last)):
            query = urlencode({**base, "per_page": per_page, "page": number})
            links.append(f'<{req.server.api_url}{req.path}?{query}>; rel="{rel}"')
        headers["Link"] = ", ".join(links)
    return 200, headers, chunk


def _public(comment: Json) -> Json:
    return {k: v for k, v in comment.items() if not k.startswith("_")}


def _check_body(body: Any) -> Response | None:
    if not isinstance(body, dict) or not isinstance(body.get("body"), str):
        return _invalid("IssueComment", "body", "body wasn't supplied")
    if len(body["body"].encode("utf-16-le")) // 2 > COMMENT_MAX:
        return _invalid("IssueComment", "body", "Body is too long (maximum is 65536 characters)")
    return None


def _invalid(resource: str, field_name: str, message: str) -> Response:
    return (
        422,
        {},
        {
            "message": "Validation Failed",
            "errors": [
                {"resource": resource, "code": "custom", "field": field_name, "message": message}
            ],
            "documentation_url": "https://docs.github.com/rest",
        },
    )


def not_found() -> Json:
    return {"message": "Not Found", "documentation_url": "https://docs.github.com/rest"}


def now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
