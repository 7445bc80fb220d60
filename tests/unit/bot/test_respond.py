"""The bot's answers to comments, against the loopback GitHub server."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime

import pytest

from specsnap.bot.command import RunCommand
from specsnap.bot.respond import CommentEvent, Outcome, comment_event, handle_comment
from specsnap.publish.github import ApiConfig, connect, get_repository
from tests.support import bot_events
from tests.support.github_server import GitHubServer

REPO, HEAD = "octo/agent", "d" * 40


@pytest.fixture
def server() -> Iterator[GitHubServer]:
    with GitHubServer(lifetime=60) as gh:
        repo = gh.add_repo(REPO)
        repo.collaborators.update(
            {
                "maintainer": "admin",
                "dev": "write",
                "reader": "read",
                "keeper": "maintain",
                "triager": "triage",
            }
        )
        gh.add_token("rw", write=True)
        gh.add_pull(REPO, 12, HEAD)
        yield gh


def repo_of(server: GitHubServer):
    config = ApiConfig(server.api_url, "rw", seconds_between_requests=0, seconds_between_writes=0)
    return get_repository(connect(config), REPO)


def event_for(server: GitHubServer, body: str, author: str, *, pull: bool = True) -> CommentEvent:
    comment = server.add_comment(REPO, 12, body, login=author)
    return CommentEvent(REPO, 12, pull, comment["id"], author, "User", body)


def test_payload_of_a_new_comment_becomes_an_event(server: GitHubServer) -> None:
    posted = server.add_comment(REPO, 12, "/specsnap run tier=2", login="dev")
    payload = bot_events.comment_event(server, REPO, 12, posted, "2026-05-01T12:00:00Z")
    written = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)
    expected = CommentEvent(REPO, 12, True, posted["id"], "dev", "User", "/specsnap run tier=2",
                            written)  # fmt: skip
    assert comment_event(payload) == expected
    edited = bot_events.comment_event(server, REPO, 12, posted, "2026-05-01T12:00:00Z",
                                      action="edited")  # fmt: skip
    assert comment_event(edited) is None


def test_a_comment_without_an_author_is_ignored(server: GitHubServer) -> None:
    """GitHub's schema lets `comment.user` be null (a deleted account); the bot used to ask for
    the permission of "" (`/collaborators//permission`, no such operation) and fail."""
    posted = server.add_comment(REPO, 12, "/specsnap run tier=2", login="dev")
    payload = bot_events.comment_event(server, REPO, 12, posted, "2026-05-01T12:00:00Z")
    payload["comment"]["user"] = None
    assert bot_events.checked("issue_comment", payload) and comment_event(payload) is None


def test_a_writer_starts_a_run_with_a_reaction_and_a_linking_reply(server: GitHubServer) -> None:
    started: list[tuple[RunCommand, int, str]] = []

    def start(command: RunCommand, number: int, sha: str) -> str:
        started.append((command, number, sha))
        return "https://ghe.example/octo/agent/actions/runs/77"

    event = event_for(server, "/specsnap run tier=2 seed=7", "dev")
    result = handle_comment(repo_of(server), event, start)
    assert result.outcome is Outcome.STARTED and result.head_sha == HEAD
    assert started == [(RunCommand("tier-2", 7), 12, HEAD)]
    assert [r["content"] for r in server.repos[REPO].reactions] == ["rocket"]
    reply = server.repos[REPO].comments[int(result.reply_url.rsplit("-", 1)[1])]  # type: ignore[union-attr]
    assert (
        "@dev started a SpecSnap evaluation of `dddddddddddd` on **tier-2**, seed 7"
        in (reply["body"])
    )
    assert "(https://ghe.example/octo/agent/actions/runs/77)" in reply["body"]


@pytest.mark.parametrize("author", ["maintainer", "keeper"])
def test_an_admin_or_a_maintainer_may_start_too(server: GitHubServer, author: str) -> None:
    event = event_for(server, "/specsnap run tier=1", author)
    assert handle_comment(repo_of(server), event, lambda *a: None).outcome is Outcome.STARTED


@pytest.mark.parametrize("author", ["reader", "triager", "stranger", "ghost-user"])
def test_others_get_a_polite_refusal_and_nothing_starts(server: GitHubServer, author: str) -> None:
    event = event_for(server, "/specsnap run tier=2", author)
    result = handle_comment(repo_of(server), event, lambda *a: pytest.fail("must not start"))
    assert result.outcome is Outcome.REFUSED
    reply = [c for c in server.repos[REPO].comments.values() if c["user"]["login"] != author][-1]
    assert reply["body"].startswith(f"Thanks for the interest, @{author}!")
    assert "write access" in reply["body"]
    assert server.repos[REPO].reactions == []


def test_a_malformed_command_is_explained(server: GitHubServer) -> None:
    event = event_for(server, "/specsnap run tier=banana", "dev")
    result = handle_comment(repo_of(server), event, lambda *a: pytest.fail("must not start"))
    assert result.outcome is Outcome.INVALID
    assert [r["content"] for r in server.repos[REPO].reactions] == ["confused"]
    assert any("tier `banana`" in c["body"] for c in server.repos[REPO].comments.values())


def test_ordinary_comments_and_bots_cost_no_api_call(server: GitHubServer) -> None:
    repo = repo_of(server)
    before = len(server.requests)
    plain = CommentEvent(REPO, 12, True, 1, "dev", "User", "LGTM")
    bot = CommentEvent(REPO, 12, True, 2, "specsnap[bot]", "Bot", "/specsnap run tier=2")
    assert handle_comment(repo, plain, lambda *a: None).outcome is Outcome.IGNORED
    assert handle_comment(repo, bot, lambda *a: None).outcome is Outcome.IGNORED
    assert len(server.requests) == before


def test_a_command_on_an_issue_is_answered_not_run(server: GitHubServer) -> None:
    event = event_for(server, "/specsnap run tier=2", "dev", pull=False)
    result = handle_comment(repo_of(server), event, lambda *a: pytest.fail("must not start"))
    assert result.outcome is Outcome.INVALID


def test_help(server: GitHubServer) -> None:
    event = event_for(server, "/specsnap help", "reader")
    assert handle_comment(repo_of(server), event, lambda *a: None).outcome is Outcome.HELP
