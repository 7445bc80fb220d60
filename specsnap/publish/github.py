"""The REST calls publishing makes, through PyGithub, with retries and rate-limit handling.

Every call goes through `Github` built by `connect`: PyGithub's `GithubRetry` retries 5xx and 429
answers with exponential backoff, waits out primary rate limits until `X-RateLimit-Reset` and
secondary ones per `Retry-After` — but never longer than `max_rate_limit_wait`. What still fails
is mapped onto two errors: `WriteDenied` (the token may not write here: degrade, do not fail) and
`PublishError` (the API did not answer usefully: an infrastructure failure).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import requests
from github import Auth, Github, GithubException, GithubRetry, RateLimitExceededException
from github.CheckRun import CheckRun
from github.Repository import Repository

from specsnap.errors import InfrastructureError
from specsnap.render.checks import CheckRunOutput
from specsnap.render.limits import ANNOTATIONS_PER_REQUEST, batches
from specsnap.scorecard.delta import Snapshot, find_snapshots

#: How far back the base branch is searched for SpecSnap check runs.
BASE_COMMITS_SEARCHED = 20


class PublishError(InfrastructureError):
    """The GitHub API failed after retries (or answered something unusable)."""


class WriteDenied(PublishError):
    """The token may not write here (fork pull request, read-only token): publishing degrades."""


@dataclass(frozen=True)
class ApiConfig:
    """How to reach the REST API. `base_url` is `GITHUB_API_URL` (GitHub Enterprise too)."""

    base_url: str
    token: str
    retries: int = 5
    backoff_factor: float = 1.0
    secondary_rate_wait: float = 60.0
    max_rate_limit_wait: float = 600.0
    timeout: int = 30
    #: GitHub asks integrations to space requests, writes by 1 s, to avoid secondary rate limits.
    seconds_between_requests: float = 0.25
    seconds_between_writes: float = 1.0


@dataclass(frozen=True)
class CommentResult:
    url: str
    created: bool


def connect(config: ApiConfig) -> Github:
    """A PyGithub client for `config`, retrying transient failures."""
    retry = GithubRetry(
        total=config.retries,
        backoff_factor=config.backoff_factor,
        secondary_rate_wait=config.secondary_rate_wait,
        max_rate_limit_wait=config.max_rate_limit_wait,
        # 429 is GitHub's other rate-limit answer; GithubRetry adds 403 and inspects it.
        status_forcelist=[429, *range(500, 600)],
        # Edits (PATCH) are idempotent here, and must survive a rate limit like the rest.
        allowed_methods=GithubRetry.DEFAULT_ALLOWED_METHODS | {"GET", "POST", "PATCH"},
    )
    return Github(
        base_url=config.base_url.rstrip("/"),
        auth=Auth.Token(config.token),
        retry=retry,
        timeout=config.timeout,
        seconds_between_requests=config.seconds_between_requests,
        seconds_between_writes=config.seconds_between_writes,
    )


@contextmanager
def api_call(what: str, *, writing: bool) -> Iterator[None]:
    """Map what PyGithub and requests raise onto WriteDenied / PublishError, saying `what`."""
    try:
        yield
    except RateLimitExceededException as exc:
        raise PublishError(f"{what}: GitHub's rate limit is exhausted ({_message(exc)})") from exc
    except GithubException as exc:
        if writing and exc.status in (403, 404):
            raise WriteDenied(
                f"{what}: the token may not write here (HTTP {exc.status}: {_message(exc)})"
            ) from exc
        raise PublishError(f"{what}: HTTP {exc.status}: {_message(exc)}") from exc
    except requests.RequestException as exc:
        raise PublishError(f"{what}: {exc.__class__.__name__}: {exc}") from exc


def get_repository(github: Github, full_name: str) -> Repository:
    with api_call(f"reading repository {full_name}", writing=False):
        return github.get_repo(full_name)


def token_login(repo: Repository) -> str:
    """The login the token writes as (`github-actions[bot]` for a workflow's token).

    GraphQL's `viewer` answers for every kind of token; REST's `GET /user` refuses installation
    tokens (GITHUB_TOKEN, a GitHub App's).
    """
    with api_call("reading who the token is", writing=False):
        _, data = repo.requester.graphql_query("query { viewer { login } }", {})
    login = ((data.get("data") or {}).get("viewer") or {}).get("login")
    if not isinstance(login, str) or not login:
        raise PublishError(f"GitHub did not say who the token is: {data}")
    return login


def upsert_comment(
    repo: Repository,
    number: int,
    marker: str,
    body: str | Callable[[str | None], str],
    *,
    author: str,
    create: bool = True,
) -> CommentResult | None:
    """Edit the comment on `number` that carries `marker` and was written by `author` (the
    token's own login), or create it (when `create`). `body` may be a function of the
    comment's body as it is (None: there is none yet).

    Anyone can write the marker into a comment; only the token's own comment is edited, so
    SpecSnap never edits, or is steered by, a comment someone else planted. The oldest of its
    own marked comments is the sticky one; it is edited in place, never duplicated.
    """
    issue = repo.get_issue(number)
    with api_call(f"reading the comments of #{number}", writing=False):
        existing = next(
            (
                c
                for c in issue.get_comments()
                if marker in (c.body or "") and c.user is not None and c.user.login == author
            ),
            None,
        )
    if existing is not None:
        with api_call(f"editing comment {existing.id} on #{number}", writing=True):
            existing.edit(body if isinstance(body, str) else body(existing.body or ""))
        return CommentResult(existing.html_url, created=False)
    if not create:
        return None
    with api_call(f"commenting on #{number}", writing=True):
        comment = issue.create_comment(body if isinstance(body, str) else body(None))
    return CommentResult(comment.html_url, created=True)


def create_check_run(
    repo: Repository,
    head_sha: str,
    output: CheckRunOutput,
    details_url: str | None,
    in_progress: int | None = None,
) -> str:
    """The completed check run, 50 annotations per request; its web URL. `in_progress` names
    the evaluation's in-progress check run (specsnap.publish.progress): it is completed instead
    of a new one being made, if GitHub still shows it with this name and commit, not completed."""
    chunks = batches(output.annotations, ANNOTATIONS_PER_REQUEST) or [()]
    extra: dict[str, Any] = {"details_url": details_url} if details_url else {}
    run = _ours_to_complete(repo, in_progress, output.name, head_sha)
    if run is not None:
        with api_call(f"completing check run {output.name!r}", writing=True):
            run.edit(
                status="completed",
                conclusion=output.conclusion,
                completed_at=datetime.now(UTC),
                output=_output(output, chunks[0]),
                **extra,
            )
    else:
        with api_call(f"creating check run {output.name!r}", writing=True):
            run = repo.create_check_run(
                name=output.name,
                head_sha=head_sha,
                status="completed",
                conclusion=output.conclusion,
                completed_at=datetime.now(UTC),
                output=_output(output, chunks[0]),
                **extra,
            )
    for number, chunk in enumerate(chunks[1:], start=2):
        with api_call(
            f"adding annotations ({number}/{len(chunks)}) to {output.name!r}", writing=True
        ):
            run.edit(output=_output(output, chunk))
    return str(run.html_url)


def start_check_run(
    repo: Repository, name: str, head_sha: str, title: str, summary: str, details_url: str | None
) -> int:
    """Create a check run `in_progress`; its id."""
    extra: dict[str, Any] = {"details_url": details_url} if details_url else {}
    with api_call(f"creating check run {name!r} in progress", writing=True):
        run = repo.create_check_run(
            name=name,
            head_sha=head_sha,
            status="in_progress",
            started_at=datetime.now(UTC),
            output={"title": title, "summary": summary},
            **extra,
        )
    return int(run.id)


def edit_check_run(repo: Repository, run_id: int, title: str, summary: str) -> None:
    """Replace the output of the in-progress check run `run_id`."""
    with api_call(f"updating check run {run_id}", writing=True):
        repo.get_check_run(run_id).edit(output={"title": title, "summary": summary})


def _ours_to_complete(
    repo: Repository, run_id: int | None, name: str, head_sha: str
) -> CheckRun | None:
    if run_id is None:
        return None
    try:
        with api_call(f"reading check run {run_id}", writing=False):
            run = repo.get_check_run(run_id)
    except PublishError:
        return None
    if run.name != name or run.head_sha != head_sha or run.status == "completed":
        return None
    return run


def find_base_snapshots(
    repo: Repository, base_ref: str, keys: Iterable[str], commits: int = BASE_COMMITS_SEARCHED
) -> dict[str, Snapshot]:
    """The newest snapshot per key among the check runs of `base_ref`'s last `commits` commits."""
    wanted = set(keys)
    found: dict[str, Snapshot] = {}
    with api_call(f"reading the check runs of {base_ref!r}", writing=False):
        for index, commit in enumerate(repo.get_commits(sha=base_ref)):
            if index >= commits or wanted <= found.keys():
                break
            for run in commit.get_check_runs(filter="latest", status="completed"):
                for snap in find_snapshots(run.output.summary, commit=commit.sha):
                    if snap.key in wanted and snap.key not in found:
                        found[snap.key] = snap
    return found


@dataclass(frozen=True)
class PullRequestInfo:
    head_sha: str
    base_ref: str
    fork: bool


def find_pull_request(repo: Repository, head_label: str, head_sha: str) -> int | None:
    """The open pull request whose head is `head_label` (`owner:branch`) at `head_sha`: how a
    `workflow_run` event names a fork's pull request (its `pull_requests` list is empty)."""
    with api_call(f"finding the pull request of {head_label}", writing=False):
        for pull in repo.get_pulls(state="open", head=head_label):
            if pull.head.sha == head_sha:
                return int(pull.number)
    return None


def pull_request_info(repo: Repository, number: int) -> PullRequestInfo:
    """What the event payload did not say about pull request `number`."""
    with api_call(f"reading pull request #{number}", writing=False):
        pull = repo.get_pull(number)
        head_repo = pull.head.repo.full_name if pull.head.repo else ""
        return PullRequestInfo(pull.head.sha, pull.base.ref, head_repo != repo.full_name)


def _output(output: CheckRunOutput, annotations: tuple[Any, ...]) -> dict[str, Any]:
    return {
        "title": output.title,
        "summary": output.summary,
        "text": output.text,
        "annotations": [a.as_api() for a in annotations],
    }


def _message(exc: GithubException) -> str:
    data = exc.data
    if isinstance(data, dict) and data.get("message"):
        return str(data["message"])
    return str(data or exc)
