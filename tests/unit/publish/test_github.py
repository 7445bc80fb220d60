"""The REST layer against the loopback GitHub server, through the real PyGithub (and publishing
end to end against each GitHub Enterprise Server version SpecSnap supports)."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest

from specsnap.publish.github import (
    ApiConfig,
    PublishError,
    WriteDenied,
    connect,
    create_check_run,
    find_base_snapshots,
    get_repository,
    pull_request_info,
    start_check_run,
    token_login,
    upsert_comment,
)
from specsnap.publish.pipeline import PublishOptions, publish_scorecards
from specsnap.publish.target import Target
from specsnap.render.checks import render_check_run
from specsnap.render.comment import RenderContext
from specsnap.scorecard.delta import snapshot_of
from tests.support import github_contract
from tests.support.github_contract import GHES_VERSIONS
from tests.support.github_server import GitHubServer
from tests.support.scorecards import fixture_card, many_violations

REPO, HEAD = "octo/agent", "a" * 40
MARKER = "<!-- specsnap:comment:default -->"


@pytest.fixture
def server() -> Iterator[GitHubServer]:
    with GitHubServer(prefix="/api/v3", lifetime=60) as gh:  # a GitHub Enterprise-style base URL
        gh.add_repo(REPO)
        gh.add_token("rw-token", write=True)
        gh.add_token("ro-token", write=False)
        gh.add_pull(REPO, 12, HEAD)
        yield gh


def repo_for(server: GitHubServer, token: str = "rw-token", **config: float):
    settings = {
        "seconds_between_requests": 0.0,
        "seconds_between_writes": 0.0,
        "backoff_factor": 0.1,
        **config,
    }
    return get_repository(connect(ApiConfig(server.api_url, token, **settings)), REPO)  # type: ignore[arg-type]


BOT = "github-actions[bot]"  # what GitHub's GraphQL `viewer` says a workflow's token is


def test_the_token_knows_who_it_is(server: GitHubServer) -> None:
    assert token_login(repo_for(server)) == BOT


def test_a_planted_marker_is_never_edited(server: GitHubServer) -> None:
    repo = repo_for(server)
    planted = server.add_comment(REPO, 12, MARKER + "\nplanted by a contributor", login="mallory")
    result = upsert_comment(repo, 12, MARKER, MARKER + "\nours", author=token_login(repo))
    assert result is not None and result.created
    assert server.repos[REPO].comments[planted["id"]]["body"].endswith("planted by a contributor")


def test_the_sticky_comment_is_created_once_then_edited(server: GitHubServer) -> None:
    repo = repo_for(server)
    server.add_comment(REPO, 12, "an unrelated comment")
    first = upsert_comment(repo, 12, MARKER, MARKER + "\nfirst", author=BOT)
    second = upsert_comment(repo, 12, MARKER, MARKER + "\nsecond", author=BOT)
    assert first is not None and first.created
    assert second is not None and not second.created and second.url == first.url
    ours = [c for c in server.repos[REPO].comments.values() if MARKER in c["body"]]
    assert [c["body"] for c in ours] == [MARKER + "\nsecond"]
    assert len(server.calls("POST", r"/issues/12/comments$")) == 1
    assert len(server.calls("PATCH", r"/issues/comments/")) == 1


def test_the_sticky_comment_is_found_beyond_the_first_page(server: GitHubServer) -> None:
    repo = repo_for(server)
    for i in range(45):
        server.add_comment(REPO, 12, f"chatter {i}")
    upsert_comment(repo, 12, MARKER, MARKER + "\nv1", author=BOT)
    for i in range(40):
        server.add_comment(REPO, 12, f"more chatter {i}")
    result = upsert_comment(repo, 12, MARKER, MARKER + "\nv2", author=BOT)
    assert result is not None and not result.created
    assert sum(MARKER in c["body"] for c in server.repos[REPO].comments.values()) == 1


def test_comment_creation_can_be_left_to_failures_only(server: GitHubServer) -> None:
    assert upsert_comment(repo_for(server), 12, MARKER, MARKER, author=BOT, create=False) is None
    assert server.calls("POST", r"/comments$") == []


def test_server_errors_and_rate_limits_are_retried(server: GitHubServer) -> None:
    repo = repo_for(server)
    server.fail("GET", r"/issues/12/comments$", "500")
    server.fail("GET", r"/issues/12/comments$", "429")
    server.fail("POST", r"/issues/12/comments$", "502")
    server.fail("POST", r"/issues/12/comments$", "secondary_rate_limit")
    server.fail("PATCH", r"/issues/comments/", "primary_rate_limit")
    started = time.monotonic()
    assert upsert_comment(repo, 12, MARKER, MARKER + "\none", author=BOT) is not None
    assert upsert_comment(repo, 12, MARKER, MARKER + "\ntwo", author=BOT) is not None
    statuses = [r.status for r in server.requests if "comments" in r.path]
    assert statuses.count(500) == 1 and statuses.count(429) == 1 and statuses.count(502) == 1
    assert statuses.count(403) == 2  # the secondary and the primary rate limit
    assert time.monotonic() - started >= 2.0  # Retry-After: 1 (twice) and the reset were honoured
    assert len([c for c in server.repos[REPO].comments.values()]) == 1


def test_persistent_failure_is_an_infrastructure_error(server: GitHubServer) -> None:
    repo = repo_for(server, retries=2)
    server.fail("GET", r"/issues/12/comments$", "500", times=10)
    with pytest.raises(PublishError) as caught:
        upsert_comment(repo, 12, MARKER, MARKER, author=BOT)
    assert not isinstance(caught.value, WriteDenied)
    assert caught.value.exit_code == 3
    assert "reading the comments of #12" in str(caught.value)


def test_a_rate_limit_beyond_the_longest_wait_is_not_waited_out(server: GitHubServer) -> None:
    repo = repo_for(server, max_rate_limit_wait=0.5)
    server.fail("GET", r"/issues/12/comments$", "primary_rate_limit", times=5)
    with pytest.raises(PublishError, match="rate limit"):
        upsert_comment(repo, 12, MARKER, MARKER, author=BOT)


def test_a_read_only_token_is_denied_writing(server: GitHubServer) -> None:
    repo = repo_for(server, token="ro-token")
    with pytest.raises(WriteDenied, match="Resource not accessible by integration"):
        upsert_comment(repo, 12, MARKER, MARKER, author=BOT)


def test_bad_credentials_are_an_infrastructure_error_not_a_degradation(
    server: GitHubServer,
) -> None:
    with pytest.raises(PublishError) as caught:
        repo_for(server, token="nope")
    assert not isinstance(caught.value, WriteDenied) and "Bad credentials" in str(caught.value)


def test_annotations_go_out_fifty_per_request(server: GitHubServer) -> None:
    card = fixture_card("tier-2-seed-7", many_violations(118))  # 118 + 3 + 2 = 123 annotations
    output = render_check_run(card, None, RenderContext(), "SpecSnap (tier-2, seed 7)", "failure")
    url = create_check_run(repo_for(server), HEAD, output, "https://run")
    ((run_id, run),) = server.repos[REPO].check_runs.items()
    assert url == run["html_url"]
    assert run["name"] == "SpecSnap (tier-2, seed 7)" and run["conclusion"] == "failure"
    assert run["head_sha"] == HEAD and run["details_url"] == "https://run"
    sizes = [
        len(r.body["output"]["annotations"]) for r in server.requests if "check-runs" in r.path
    ]
    assert sizes == [50, 50, 23]
    stored = server.repos[REPO].annotations[run_id]
    assert len(stored) == 123
    assert [a["path"] for a in stored[:4]] == [
        "tests/test_orders.py",  # findings in the scorecard's one order: baseline, protected, ...
        "tests/test_shipping.py",
        "wiring.yaml",
        "shipping/module_0.py",
    ]


def test_base_scores_come_from_the_base_branch_check_runs(server: GitHubServer) -> None:
    repo = repo_for(server)
    base = fixture_card("tier-2-seed-7-base")
    other = fixture_card("tier-1-seed-3")
    output = render_check_run(base, None, RenderContext(), "SpecSnap (tier-2, seed 7)", "failure")
    server.add_commit(REPO, "main", "1" * 40)
    server.add_check_run(REPO, "1" * 40, output.name, output.summary)
    server.add_check_run(REPO, "1" * 40, "lint", "no snapshot here")
    server.add_commit(REPO, "main", "2" * 40)  # the newest commit was not evaluated
    found = find_base_snapshots(repo, "main", [base.key, other.key])
    assert found == {base.key: snapshot_of(base, commit="1" * 40)}


def test_the_base_search_stops_after_a_bounded_number_of_commits(server: GitHubServer) -> None:
    for i in range(60):
        server.add_commit(REPO, "main", f"{i:040d}")
    assert find_base_snapshots(repo_for(server), "main", ["tier-2/seed-7"], commits=20) == {}
    assert len(server.calls("GET", r"/check-runs$")) == 20


def test_pull_request_info_fills_what_the_event_did_not_say(server: GitHubServer) -> None:
    server.add_pull(REPO, 13, "c" * 40, base="develop", fork="someone/agent")
    info = pull_request_info(repo_for(server), 13)
    assert (info.head_sha, info.base_ref, info.fork) == ("c" * 40, "develop", True)


def test_the_in_progress_check_run_is_completed_and_no_other_one_ever_is(
    server: GitHubServer,
) -> None:
    """The publish step completes the evaluation's own in-progress check run; a recorded id that
    names another check run (another name, another commit, or one already completed: what a run
    directory from elsewhere could claim) gets a new check run instead, the other untouched."""
    repo = repo_for(server)
    name = "SpecSnap (tier-2, seed 7)"
    output = render_check_run(fixture_card("tier-2-seed-7"), None, RenderContext(), name, "success")
    ours = start_check_run(repo, name, HEAD, "Evaluating…", "prepared", None)
    other_name = start_check_run(repo, "CI", HEAD, "t", "s", None)
    other_sha = start_check_run(repo, name, "b" * 40, "t", "s", None)
    done = create_check_run(repo, HEAD, output, None)
    runs = server.repos[REPO].check_runs
    before = {i: dict(runs[i]) for i in (other_name, other_sha)}
    for claimed in (other_name, other_sha, int(done.rsplit("/", 1)[1]), 999_999):
        create_check_run(repo, HEAD, output, None, in_progress=claimed)
    assert {i: runs[i] for i in before} == before  # never edited
    assert len(runs) == 4 + 4  # each claim got a check run of its own
    assert runs[ours]["status"] == "in_progress"
    create_check_run(repo, HEAD, output, None, in_progress=ours)
    assert runs[ours]["status"] == "completed" and runs[ours]["conclusion"] == "success"
    assert len(runs) == 8


@pytest.mark.skipif(bool(github_contract.available()), reason="the GHES descriptions are played")
@pytest.mark.parametrize("version", GHES_VERSIONS)
def test_a_scorecard_is_published_on_each_ghes_version(version: str) -> None:
    """Publishing as the Action does on a GHES (`https://HOST/api/v3`), each exchange held to
    that version's description: the token's login (GraphQL beside the REST API), the pull
    request looked up, the base branch's check runs read for deltas, a check run with 60
    annotations (created with 50, then 10 more in an update) and the sticky comment, created
    then edited. Nothing in 3.17-3.19's descriptions differs from api.github.com here."""
    card = fixture_card("tier-2-seed-7", many_violations(55))  # 55 + 3 + 2 = 60 annotations
    base = fixture_card("tier-2-seed-7-base")
    base_run = render_check_run(base, None, RenderContext(), "SpecSnap (tier-2, seed 7)", "failure")
    with GitHubServer(prefix="/api/v3", lifetime=60, ghes=version) as server:
        server.add_repo(REPO)
        server.add_token("rw-token", write=True)
        server.add_pull(REPO, 12, HEAD)
        server.add_commit(REPO, "main", "1" * 40)
        server.add_check_run(REPO, "1" * 40, base_run.name, base_run.summary)
        pacing = {"seconds_between_requests": 0.0, "seconds_between_writes": 0.0}
        github = connect(ApiConfig(server.api_url, "rw-token", **pacing))
        target = Target(REPO, "", 12, "")  # as an issue_comment event gives it: looked up
        first = publish_scorecards([card], target, PublishOptions(run_url="https://run"), github)
        again = publish_scorecards([card], target, PublishOptions(run_url="https://run"), github)
    assert first.degraded is None and first.comment_created and not again.comment_created
    (comment,) = server.repos[REPO].comments.values()
    assert again.comment_url == first.comment_url == comment["html_url"]
    assert "| tier-2, seed 7 |" in comment["body"] and "against `main`" in comment["body"]
    ours = [run for run in server.repos[REPO].check_runs.values() if run["head_sha"] == HEAD]
    assert [(run["name"], run["conclusion"]) for run in ours] == [
        ("SpecSnap (tier-2, seed 7)", "failure")
    ] * 2
    assert [len(server.repos[REPO].annotations[run["id"]]) for run in ours] == [60, 60]
    assert server.calls("PATCH", r"/check-runs/\d+$") and server.calls("GET", r"/pulls/12$")
    assert server.calls("POST", r"^/graphql$")  # served at /api/graphql, as GHES serves it
    assert server.descriptions_held_to() == {f"ghes-{version}"}
    assert server.violations == []
