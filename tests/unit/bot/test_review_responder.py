"""`/specsnap review` against the loopback GitHub: who may rate, ratings hidden until two
reviewers rated, the rating comment removed once recorded, redeliveries recorded once."""

from __future__ import annotations

import functools
import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from specsnap.bot.command import parse_command
from specsnap.bot.respond import CommentEvent, Outcome, handle_comment
from specsnap.bot.reviews import ReviewDesk, handle_review
from specsnap.publish.github import ApiConfig, connect, get_repository
from tests.support.github_server import GitHubServer
from tests.support.scorecards import write_fixture

REPO = "octo/agent"
RATING = " ".join(f'q{n}=4 "reason {n} of the first"' for n in range(1, 6))
APART = " ".join(f'q{n}={1 if n == 3 else 4} "second says {n}"' for n in range(1, 6))


@pytest.fixture
def server() -> Iterator[GitHubServer]:
    with GitHubServer(lifetime=60) as gh:
        repo = gh.add_repo(REPO)
        repo.collaborators.update(dev="write", boss="admin", reader="read", triager="triage")
        gh.add_token("rw", write=True)
        gh.add_pull(REPO, 12, "d" * 40)
        gh.add_pull(REPO, 13, "e" * 40)
        yield gh


@pytest.fixture
def desk(tmp_path: Path) -> ReviewDesk:
    write_fixture(tmp_path / "octo" / "agent" / "12", "tier-1-seed-3")
    return ReviewDesk(tmp_path)


def say(server: GitHubServer, desk: ReviewDesk | None, author: str, body: str, number: int = 12):
    comment = server.add_comment(REPO, number, body, login=author)
    event = CommentEvent(REPO, number, True, comment["id"], author, "User", body)
    config = ApiConfig(server.api_url, "rw", seconds_between_requests=0, seconds_between_writes=0)
    repo = get_repository(connect(config), REPO)
    review = functools.partial(handle_review, desk=desk) if desk is not None else None
    result = handle_comment(repo, event, lambda *a: pytest.fail("must not start"), review=review)
    last = list(server.repos[REPO].comments.values())[-1]
    return result, last["body"], comment["id"]


def entries(desk: ReviewDesk) -> list[dict]:
    path = desk.root / "octo" / "agent" / "12" / "reviews.json"
    return json.loads(path.read_text())["entries"] if path.exists() else []


def test_ratings_are_hidden_until_the_second_reviewer_then_combined(server, desk) -> None:
    result, reply, first = say(server, desk, "dev", "/specsnap review " + RATING)
    assert result.outcome is Outcome.REVIEWED
    assert "1 of 2 reviewers have rated" in reply
    assert "reason" not in reply and "q1" not in reply and "4" not in reply.split(")", 1)[1]
    assert first not in server.repos[REPO].comments  # removed once recorded
    _, reply, _ = say(server, desk, "boss", "/specsnap review " + APART)
    assert "| q3 clarity | `dev` 4, `boss` 1 | — | needs a reconciliation |" in reply
    assert "reason 3 of the first" in reply and "second says 3" in reply
    assert [e["source"]["author"] for e in entries(desk)] == ["dev", "boss"]


@pytest.mark.parametrize("who", ["reader", "triager", "stranger"])
def test_only_writers_review(server, desk, who) -> None:
    result, reply, comment = say(server, desk, who, "/specsnap review " + RATING)
    assert result.outcome is Outcome.REFUSED and "needs write access" in reply
    assert entries(desk) == [] and comment in server.repos[REPO].comments


def test_a_refused_rating_keeps_its_comment_and_says_why(server, desk) -> None:
    say(server, desk, "dev", "/specsnap review " + RATING)
    result, reply, comment = say(server, desk, "dev", "/specsnap review " + RATING)
    assert result.outcome is Outcome.INVALID and "has rated already" in reply
    assert comment in server.repos[REPO].comments and len(entries(desk)) == 1


def test_a_redelivered_rating_is_recorded_once(server, desk) -> None:
    say(server, desk, "dev", "/specsnap review " + RATING)
    (entry,) = entries(desk)
    comment_id = entry["source"]["comment_id"]
    config = ApiConfig(server.api_url, "rw", seconds_between_requests=0, seconds_between_writes=0)
    repo = get_repository(connect(config), REPO)
    again = CommentEvent(REPO, 12, True, comment_id, "dev", "User", "/specsnap review " + RATING)
    command = parse_command(again.body)
    assert handle_review(repo, again, command, desk).outcome is Outcome.IGNORED  # type: ignore[arg-type]
    assert len(entries(desk)) == 1


def test_without_a_run_or_without_reviews_set_up_nothing_is_recorded(server, desk) -> None:
    result, reply, _ = say(server, desk, "dev", "/specsnap review " + RATING, number=13)
    assert result.outcome is Outcome.INVALID and "no SpecSnap run to review" in reply
    result, reply, _ = say(server, None, "dev", "/specsnap review")
    assert result.outcome is Outcome.INVALID and "reviews are not set up" in reply


@pytest.mark.parametrize("name", ["octo/..", "../agent", "octo/agent/12", "octo", "./agent"])
def test_the_desk_never_leaves_its_directory(desk, name) -> None:
    assert desk.run_dir(name, 12) is None
    assert desk.run_dir(REPO, 12) == desk.root / "octo" / "agent" / "12"
