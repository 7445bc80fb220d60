"""publish_scorecards end to end against the loopback GitHub server."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from specsnap.publish.github import ApiConfig, connect
from specsnap.publish.pipeline import CommentMode, PublishOptions, publish_scorecards
from specsnap.publish.target import Target
from specsnap.render.checks import render_check_run
from specsnap.render.comment import NotEvaluated, RenderContext
from specsnap.render.markdown import render_markdown
from tests.support.github_server import GitHubServer
from tests.support.scorecards import fixture_card

REPO, HEAD = "octo/agent", "a" * 40


@pytest.fixture
def server() -> Iterator[GitHubServer]:
    with GitHubServer(lifetime=60) as gh:
        gh.add_repo(REPO)
        gh.add_token("rw", write=True)
        gh.add_token("ro", write=False)
        gh.add_pull(REPO, 12, HEAD)
        yield gh


def client(server: GitHubServer, token: str = "rw"):
    config = ApiConfig(server.api_url, token, seconds_between_requests=0, seconds_between_writes=0)
    return connect(config)


def test_a_pull_request_gets_check_runs_and_one_comment_with_deltas(server: GitHubServer) -> None:
    base = fixture_card("tier-2-seed-7-base")
    base_run = render_check_run(base, None, RenderContext(), "SpecSnap (tier-2, seed 7)", "neutral")
    server.add_commit(REPO, "main", "1" * 40)
    server.add_check_run(REPO, "1" * 40, base_run.name, base_run.summary)
    cards = [fixture_card("tier-2-seed-7"), fixture_card("tier-1-seed-3")]
    target = Target(REPO, HEAD, 12, "main")
    options = PublishOptions(run_url="https://run/1")
    result = publish_scorecards(cards, target, options, client(server))
    assert result.degraded is None and result.comment_created
    assert len(result.check_run_urls) == 2
    (comment,) = server.repos[REPO].comments.values()
    assert "0.0% (▼ 62.5)" in comment["body"]
    assert "▼ 62.5" in result.summary  # the job summary shows the same table
    again = publish_scorecards(cards, target, options, client(server))
    assert not again.comment_created and again.comment_url == result.comment_url
    assert len(server.repos[REPO].comments) == 1


def test_a_fork_pull_request_degrades_without_trying_to_write(server: GitHubServer) -> None:
    reason = "this pull request comes from a fork"
    target = Target(REPO, HEAD, 12, "main", read_only_reason=reason)
    result = publish_scorecards(
        [fixture_card("tier-1-seed-3")], target, PublishOptions(), client(server, "ro")
    )
    assert result.degraded == reason
    assert f"Not published to GitHub: {reason}." in result.summary
    assert [r for r in server.requests if r.method != "GET"] == []


def test_a_read_only_token_degrades_when_github_refuses(server: GitHubServer) -> None:
    target = Target(REPO, HEAD, 12, "main")
    result = publish_scorecards(
        [fixture_card("tier-1-seed-3")], target, PublishOptions(), client(server, "ro")
    )
    assert result.degraded is not None and "HTTP 403" in result.degraded
    assert "Not published to GitHub" in result.summary


def test_no_token_degrades_to_the_summary(server: GitHubServer) -> None:
    result = publish_scorecards(
        [fixture_card("tier-1-seed-3")], Target(REPO, HEAD, 12, "main"), PublishOptions(), None
    )
    assert result.degraded is not None and "no GitHub token" in result.degraded
    assert server.requests == []


def test_failures_mode_comments_only_when_something_fails(server: GitHubServer) -> None:
    options = PublishOptions(comment_mode=CommentMode.FAILURES)
    target = Target(REPO, HEAD, 12, "main")
    passing = publish_scorecards([fixture_card("tier-1-seed-3")], target, options, client(server))
    assert passing.comment_url is None and server.repos[REPO].comments == {}
    failing = publish_scorecards([fixture_card("tier-2-seed-7")], target, options, client(server))
    assert failing.comment_created
    fixed = publish_scorecards([fixture_card("tier-1-seed-3")], target, options, client(server))
    assert fixed.comment_url == failing.comment_url  # updated, so it does not go stale
    (comment,) = server.repos[REPO].comments.values()
    assert "1 of 1 run(s) passed" in comment["body"]


def test_a_push_gets_a_check_run_and_no_comment(server: GitHubServer) -> None:
    result = publish_scorecards(
        [fixture_card("tier-1-seed-3")],
        Target(REPO, HEAD, None, None),
        PublishOptions(),
        client(server),
    )
    assert len(result.check_run_urls) == 1 and result.comment_url is None
    assert server.repos[REPO].comments == {}


def test_an_issue_comment_target_looks_up_head_and_base(server: GitHubServer) -> None:
    server.add_pull(REPO, 14, "e" * 40, base="develop")
    target = Target(REPO, "", 14, "")
    publish_scorecards([fixture_card("tier-1-seed-3")], target, PublishOptions(), client(server))
    (run,) = server.repos[REPO].check_runs.values()
    assert run["head_sha"] == "e" * 40
    assert server.calls("GET", r"/commits$")[0].query["sha"] == ["develop"]


def test_the_check_run_text_is_the_scorecard_rendered_again(server: GitHubServer) -> None:
    card = fixture_card("tier-1-seed-3")
    publish_scorecards(
        [card], Target(REPO, HEAD, None, None), PublishOptions(check_name="Eval"), client(server)
    )
    (run,) = server.repos[REPO].check_runs.values()
    assert run["name"] == "Eval (tier-1, seed 3)" and run["conclusion"] == "success"
    assert run["output"]["text"] == render_markdown(card)


def test_changes_mode_comments_only_when_a_result_moved_against_the_base(
    server: GitHubServer,
) -> None:
    options = PublishOptions(comment_mode=CommentMode.CHANGES)
    target = Target(REPO, HEAD, 12, "main")
    current, base = fixture_card("tier-2-seed-7"), fixture_card("tier-2-seed-7-base")
    server.add_commit(REPO, "main", "1" * 40)
    same = render_check_run(current, None, RenderContext(), "SpecSnap (tier-2, seed 7)", "failure")
    server.add_check_run(REPO, "1" * 40, same.name, same.summary)
    unchanged = publish_scorecards([current], target, options, client(server))
    assert unchanged.comment_url is None and server.repos[REPO].comments == {}

    server.add_commit(REPO, "main", "2" * 40)  # the base moves on: now the result differs
    moved = render_check_run(base, None, RenderContext(), "SpecSnap (tier-2, seed 7)", "neutral")
    server.add_check_run(REPO, "2" * 40, moved.name, moved.summary)
    changed = publish_scorecards([current], target, options, client(server))
    assert changed.comment_created
    (comment,) = server.repos[REPO].comments.values()
    assert "Newly retained since the base: `SHIP-2`" in comment["body"]


def test_changes_mode_comments_when_there_is_no_base_to_compare_with(
    server: GitHubServer,
) -> None:
    options = PublishOptions(comment_mode=CommentMode.CHANGES)
    result = publish_scorecards(
        [fixture_card("tier-1-seed-3")], Target(REPO, HEAD, 12, "main"), options, client(server)
    )
    assert result.comment_created


def test_runs_that_were_not_evaluated_are_said_so_not_failed(server: GitHubServer) -> None:
    skipped = [NotEvaluated("tier-2", 7, "claude-code", "no API key")]
    result = publish_scorecards(
        [], Target(REPO, HEAD, 12, "main"), PublishOptions(), client(server), skipped
    )
    assert result.comment_created and result.check_run_urls == ()
    (comment,) = server.repos[REPO].comments.values()
    assert "⚪ not evaluated: no API key" in comment["body"] and "0.0%" not in comment["body"]
