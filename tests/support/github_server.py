"""A loopback GitHub REST API for tests: the endpoints SpecSnap's publisher and bot call.

It answers on 127.0.0.1 only, with the shapes, status codes, headers and validation GitHub's REST
API documents for these endpoints (JSON with `url`/`html_url` pointing back at itself, Link-header
pagination, rate-limit headers, 401/403/404/422 errors with GitHub's messages), so the real
PyGithub can be driven through it. Faults (5xx, primary and secondary rate limits, 429) can be
queued per endpoint. It serves from a daemon thread and shuts itself down after `lifetime`
seconds even if a test forgets to stop it. The endpoints themselves are in github_routes.py.

    with GitHubServer() as gh:
        gh.add_repo("octo/agent")
        gh.add_token("t0k3n", write=True)
        ... point GITHUB_API_URL at gh.api_url ...

It plays api.github.com by default; `GitHubServer(ghes="3.18")` (or setting `ghes` later) plays
that GitHub Enterprise Server version instead: every exchange is then held to that version's
description, and workflow dispatch answers as that description says it does.
"""

from __future__ import annotations

import itertools
import json
import re
import threading
from dataclasses import dataclass, field
from http.server import ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

import jwt

from tests.support import github_contract
from tests.support import github_payloads as payloads
from tests.support.github_contract import API_GITHUB_COM, Violation
from tests.support.github_contract import available as contract_unavailable
from tests.support.github_http import FAULTS, Fault, _fault_response, _handler_for
from tests.support.github_routes import ROUTES, Request, not_found, now

Json = dict[str, Any]


@dataclass
class Repo:
    full_name: str
    id: int
    default_branch: str = "main"
    private: bool = False
    collaborators: dict[str, str] = field(default_factory=dict)  # login -> permission
    issues: dict[int, Json] = field(default_factory=dict)
    pulls: dict[int, Json] = field(default_factory=dict)
    comments: dict[int, Json] = field(default_factory=dict)
    reactions: list[Json] = field(default_factory=list)
    check_runs: dict[int, Json] = field(default_factory=dict)
    annotations: dict[int, list[Json]] = field(default_factory=dict)
    #: Every state a check run was created or updated to, in order: id, status, summary.
    check_run_log: list[tuple[int, str, str]] = field(default_factory=list)
    branches: dict[str, list[str]] = field(default_factory=dict)  # newest commit first
    workflows: dict[str, Json] = field(default_factory=dict)
    dispatches: list[Json] = field(default_factory=list)


@dataclass
class Recorded:
    method: str
    path: str
    query: dict[str, list[str]]
    body: Any
    status: int
    #: The description the exchange was held to ("" for GraphQL, or when none is installed).
    description: str = ""


class GitHubServer:
    """The fake API. Start with `with`, or `start()` / `stop()`."""

    def __init__(
        self, prefix: str = "", lifetime: float = 120.0, *, ghes: str | None = None
    ) -> None:
        self.prefix = prefix.rstrip("/")
        self.lifetime = lifetime
        self.repos: dict[str, Repo] = {}
        self.tokens: dict[str, Json] = {}  # token -> {"login", "write", "installation"}
        self.app: Json | None = None  # {"id", "public_key"} for GitHub App JWTs
        self.faults: list[Fault] = []
        self.requests: list[Recorded] = []
        #: Every way an exchange broke GitHub's published contract (github_contract.py).
        self.violations: list[Violation] = []
        self._ids = itertools.count(1001)
        self._lock = threading.Lock()
        self._server: ThreadingHTTPServer | None = None
        self._timer: threading.Timer | None = None
        self._ghes: str | None = None
        self.ghes = ghes

    # -- lifecycle --------------------------------------------------------------------------
    def __enter__(self) -> GitHubServer:
        self.start()
        return self

    def __exit__(self, exc_type: object, *exc: object) -> None:
        self.stop()
        if exc_type is None:
            self.assert_contract_kept()

    def assert_contract_kept(self) -> None:
        """Fail, listing them, if any request or response broke GitHub's description."""
        assert not self.violations, f"GitHub's {self.description} contract was broken:\n" + (
            "\n".join(f"  {v}" for v in self.violations)
        )

    @property
    def ghes(self) -> str | None:
        """The GitHub Enterprise Server version played (one of github_contract.GHES_VERSIONS),
        or None for api.github.com."""
        return self._ghes

    @ghes.setter
    def ghes(self, version: str | None) -> None:
        name = API_GITHUB_COM if version is None else github_contract.ghes(version)
        self._ghes = version
        if self._server is not None and not contract_unavailable():
            github_contract.description(name)  # load it now (seconds), not in a timed exchange

    @property
    def description(self) -> str:
        """The description exchanges are held to: api.github.com, or `ghes-<version>`."""
        return API_GITHUB_COM if self._ghes is None else github_contract.ghes(self._ghes)

    @property
    def run_details(self) -> bool:
        """Whether workflow dispatch answers `return_run_details` with the run (200, its id and
        URLs) or ignores it (204, no body): what the description played declares. All three
        GHES descriptions (3.17-3.19) declare 204 only; without descriptions, GHES ignores it."""
        if contract_unavailable():
            return self._ghes is None
        return github_contract.description(self.description).returns_run_details()

    def descriptions_held_to(self) -> set[str]:
        """The descriptions the REST exchanges so far were held to (one, unless `ghes` changed)."""
        return {r.description for r in self.requests if r.path != "/graphql"}

    def start(self) -> None:
        server = ThreadingHTTPServer(("127.0.0.1", 0), _handler_for(self))
        server.daemon_threads = True
        self._server = server
        threading.Thread(
            target=server.serve_forever, args=(0.05,), name="github-server", daemon=True
        ).start()
        if not contract_unavailable():  # load them now (seconds), not inside a timed exchange
            github_contract.description(API_GITHUB_COM)  # the resources' examples (payloads)
            github_contract.description(self.description)
        self._timer = threading.Timer(self.lifetime, self.stop)
        self._timer.daemon = True
        self._timer.start()

    def stop(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
        server, self._server = self._server, None
        if server is not None:
            server.shutdown()
            server.server_close()

    @property
    def api_url(self) -> str:
        assert self._server is not None, "server not started"
        return f"http://127.0.0.1:{self._server.server_address[1]}{self.prefix}"

    # -- arranging state ------------------------------------------------------------------
    def add_token(
        self, token: str, *, login: str = "github-actions[bot]", write: bool = True
    ) -> None:
        self.tokens[token] = {"login": login, "write": write}

    def add_repo(self, full_name: str, *, default_branch: str = "main") -> Repo:
        repo = Repo(full_name, next(self._ids), default_branch)
        repo.branches[default_branch] = []
        self.repos[full_name] = repo
        return repo

    def add_pull(
        self,
        full_name: str,
        number: int,
        head_sha: str,
        *,
        base: str = "main",
        fork: str = "",
        branch: str = "feature",
    ) -> Json:
        repo = self.repos[full_name]
        head_repo = fork or full_name
        pull = payloads.pull_request(
            self,
            full_name,
            number,
            state="open",
            title=f"Pull request {number}",
            user=payloads.user(self, "contributor", id=7),
            head=payloads.branch_end(self, head_repo, branch, head_sha, self._repo_stub(head_repo)),
            base=payloads.branch_end(self, full_name, base, "b" * 40, self._repo_stub(full_name)),
        )
        repo.pulls[number] = pull
        repo.issues[number] = payloads.issue(
            self, full_name, number, title=pull["title"], state="open", user=pull["user"]
        )
        return pull

    def add_commit(self, full_name: str, branch: str, sha: str) -> None:
        """Push `sha` onto `branch` (it becomes the branch head)."""
        self.repos[full_name].branches.setdefault(branch, []).insert(0, sha)

    def add_check_run(self, full_name: str, sha: str, name: str, summary: str) -> Json:
        """A completed check run that some earlier workflow created on `sha`."""
        body = {"name": name, "head_sha": sha, "status": "completed", "conclusion": "success"}
        body["output"] = {"title": name, "summary": summary}
        return self._create_check_run(self.repos[full_name], body)

    def add_comment(self, full_name: str, number: int, body: str, login: str = "someone") -> Json:
        return self._create_comment(self.repos[full_name], number, body, login)

    def fail(self, method: str, path: str, kind: str, times: int = 1) -> None:
        """Answer the next `times` requests matching `method` and `path` (a regex) with `kind`."""
        assert kind in FAULTS, kind
        self.faults.append(Fault(method, re.compile(path), kind, times))

    # -- inspection ---------------------------------------------------------------------------
    def calls(self, method: str, pattern: str) -> list[Recorded]:
        regex = re.compile(pattern)
        return [r for r in self.requests if r.method == method and regex.search(r.path)]

    # -- request handling -----------------------------------------------------------------
    def handle(
        self, method: str, raw_path: str, headers: Any, body: bytes
    ) -> tuple[int, Json, Any]:
        url = urlsplit(raw_path)
        path = url.path
        if method == "POST" and path == self.graphql_path:
            return self._graphql(headers, body)
        if self.prefix:
            if not path.startswith(self.prefix + "/"):
                return 404, {}, {"message": "Not Found"}
            path = path[len(self.prefix) :]
        query = parse_qs(url.query)
        try:
            payload = json.loads(body) if body else None
        except json.JSONDecodeError:
            return 400, {}, {"message": "Problems parsing JSON"}
        held_to = "" if contract_unavailable() else self.description
        status, extra, data = self._exchange(method, path, query, headers, payload, held_to)
        with self._lock:
            self.requests.append(Recorded(method, path, query, payload, status, held_to))
        return status, extra, data

    def _exchange(
        self,
        method: str,
        path: str,
        query: dict[str, list[str]],
        headers: Any,
        payload: Any,
        held_to: str,
    ) -> tuple[int, Json, Any]:
        """Dispatch one request, holding it and its response to GitHub's description `held_to`
        ("" for none): a request the description forbids is refused with 422 as GitHub would,
        and recorded."""
        contract = github_contract.description(held_to) if held_to else None
        if contract is not None:
            problems = contract.check_request(method, path, query, payload)
            if problems:
                self._violated(problems)
                return 422, {}, {"message": "; ".join(map(str, problems))}
        faulted = self._take_fault(method, path)
        if faulted:
            return _fault_response(faulted)
        status, extra, data = self._dispatch(method, path, query, headers, payload)
        if contract is not None:
            self._violated(contract.check_response(method, path, status, data))
            github_contract.count(contract, method, path)
        return status, extra, data

    def _violated(self, problems: list[Violation]) -> None:
        with self._lock:
            self.violations.extend(problems)

    def _dispatch(
        self, method: str, path: str, query: dict[str, list[str]], headers: Any, payload: Any
    ) -> tuple[int, Json, Any]:
        for verb, pattern, handler in ROUTES:
            match = pattern.fullmatch(path)
            if verb == method and match:
                auth = self._authenticate(headers.get("Authorization", ""), path)
                if isinstance(auth, tuple):
                    return auth
                repo = None
                if "repo" in match.groupdict():
                    repo = self.repos.get(match["repo"])
                    if repo is None:
                        return 404, {}, not_found()
                    if method != "GET" and not auth.get("write"):
                        return (
                            403,
                            {},
                            {
                                "message": "Resource not accessible by integration",
                                "documentation_url": "https://docs.github.com/rest",
                            },
                        )
                request = Request(self, repo, match.groupdict(), query, payload, auth, path)
                return handler(request)
        return 404, {}, not_found()

    def _authenticate(self, header: str, path: str) -> Json | tuple[int, Json, Any]:
        scheme, _, credential = header.partition(" ")
        if scheme.lower() == "bearer" and self.app and path.startswith("/app"):
            try:
                claims = jwt.decode(credential, self.app["public_key"], algorithms=["RS256"])
            except jwt.PyJWTError as exc:
                return 401, {}, {"message": f"A JSON web token could not be decoded ({exc})"}
            if str(claims.get("iss")) != str(self.app["id"]):
                return 401, {}, {"message": "'Issuer' claim ('iss') must be the app id"}
            return {"login": "app", "write": False, "app": True}
        token = self.tokens.get(credential)
        if scheme.lower() not in ("token", "bearer") or token is None:
            return 401, {}, {"message": "Bad credentials"}
        return token

    def _take_fault(self, method: str, path: str) -> Fault | None:
        with self._lock:
            for fault in self.faults:
                if fault.times > 0 and fault.method == method and fault.path.search(path):
                    fault.times -= 1
                    return fault
        return None

    @property
    def graphql_path(self) -> str:
        """Where GitHub serves GraphQL: `/graphql`, or `/api/graphql` beside GHES's `/api/v3`."""
        return self.prefix.removesuffix("/v3") + "/graphql"

    def _graphql(self, headers: Any, body: bytes) -> tuple[int, Json, Any]:
        """The one query SpecSnap makes, `viewer { login }`, as GitHub answers it; any other
        query gets GraphQL's error shape."""
        auth = self._authenticate(headers.get("Authorization", ""), "/graphql")
        if isinstance(auth, tuple):
            status, extra, data = auth
        else:
            query = (json.loads(body or b"{}") or {}).get("query", "")
            if re.fullmatch(r"\s*(query\s*)?\{\s*viewer\s*\{\s*login\s*\}\s*\}\s*", query):
                status, extra, data = 200, {}, {"data": {"viewer": {"login": auth["login"]}}}
            else:
                error = {"message": "unsupported by the loopback server", "type": "UNSUPPORTED"}
                status, extra, data = 200, {}, {"errors": [error]}
        with self._lock:
            self.requests.append(Recorded("POST", "/graphql", {}, None, status))
        return status, extra, data

    # -- resource helpers -----------------------------------------------------------------
    def url(self, path: str) -> str:
        return f"{self.api_url}{path}"

    def html(self, path: str) -> str:
        return f"{self.api_url.removesuffix('/api/v3')}/html{path}"

    def new_id(self) -> int:
        return next(self._ids)

    def _repo_stub(self, full_name: str) -> Json:
        repo = self.repos.get(full_name)
        fields = {"default_branch": repo.default_branch, "private": repo.private} if repo else {}
        return payloads.repository(self, full_name, repo.id if repo else 99, **fields)

    def _create_comment(self, repo: Repo, number: int, body: str, login: str) -> Json:
        comment_id = self.new_id()
        stamp = now()
        comment = payloads.issue_comment(self, repo.full_name, number, comment_id)
        comment.update(body=body, created_at=stamp, updated_at=stamp, _issue=number)
        comment["user"] = payloads.user(self, login, id=41898282)
        repo.comments[comment_id] = comment
        return comment

    def _create_check_run(self, repo: Repo, body: Json) -> Json:
        run_id = self.new_id()
        output = body.get("output") or {}
        run = payloads.check_run(
            self,
            repo.full_name,
            run_id,
            name=body["name"],
            head_sha=body["head_sha"],
            external_id=body.get("external_id", ""),
            status=body.get("status", "queued"),
            conclusion=body.get("conclusion"),
            details_url=body.get("details_url"),
            started_at=body.get("started_at", now()),
            completed_at=body.get("completed_at"),
            output={
                "title": output.get("title"),
                "summary": output.get("summary"),
                "text": output.get("text"),
                "annotations_count": 0,
                "annotations_url": self.url(
                    f"/repos/{repo.full_name}/check-runs/{run_id}/annotations"
                ),
            },
        )
        repo.check_runs[run_id] = run
        repo.check_run_log.append((run_id, run["status"], run["output"]["summary"] or ""))
        repo.annotations[run_id] = []
        self._add_annotations(repo, run_id, output.get("annotations") or [])
        return run

    def _add_annotations(self, repo: Repo, run_id: int, annotations: list[Json]) -> None:
        repo.annotations[run_id].extend(annotations)
        repo.check_runs[run_id]["output"]["annotations_count"] = len(repo.annotations[run_id])
