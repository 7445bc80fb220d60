"""The GitHub App receiver over real HTTP, wired as `specsnap-bot serve` wires it: a signed
delivery is answered at once, the API work (installation token, permission, dispatch, reply)
happens after in a worker, and the commit is the pull request's head when the comment was
written."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
import requests

from specsnap.bot.__main__ import build_receiver
from specsnap.bot.app import AppConfig, AppHandler
from specsnap.bot.heads import HeadLog
from specsnap.bot.webhook import Delivery, signature
from specsnap.publish.github import PublishError
from tests.support import github_contract
from tests.support.app_keys import app_key_pair
from tests.support.bot_events import checked, comment_event, pull_request_event
from tests.support.github_contract import GHES_VERSIONS
from tests.support.github_server import GitHubServer

REPO, HEAD, SECRET, APP_ID = "octo/agent", "f" * 40, b"app-secret", 4242
REVIEWED, PUSHED_LATER = "a" * 40, "b" * 40


@pytest.fixture
def github() -> Iterator[GitHubServer]:
    private, public = app_key_pair()
    with GitHubServer(prefix="/api/v3", lifetime=60) as gh:
        gh.app = {"id": APP_ID, "public_key": public, "private_key": private}
        repo = gh.add_repo(REPO)
        repo.collaborators["dev"] = "write"
        path = ".github/workflows/specsnap.yml"
        repo.workflows["specsnap.yml"] = {"id": 9, "name": "SpecSnap", "path": path}
        gh.add_pull(REPO, 12, HEAD)
        yield gh


@pytest.fixture
def receiver(github: GitHubServer) -> Iterator[str]:
    with serving(github) as url:
        yield url


def eventually(condition: object, seconds: float = 20.0) -> None:
    """Wait until `condition()` is true: the workers act after the answer."""
    deadline = time.monotonic() + seconds
    while not condition():  # type: ignore[operator]
        assert time.monotonic() < deadline, "the worker did not act in time"
        time.sleep(0.05)


def deliver(
    url: str,
    payload: dict,
    *,
    delivery: str = "d1",
    sign: bool = True,
    event: str = "issue_comment",
) -> requests.Response:
    """POST `payload` as GitHub delivers `event`, once GitHub's schema for it allows it."""
    body = json.dumps(checked(event, payload)).encode()
    headers = {"X-GitHub-Event": event, "X-GitHub-Delivery": delivery}
    if sign:
        headers["X-Hub-Signature-256"] = signature(SECRET, body)
    return requests.post(url, data=body, headers=headers, timeout=30)


def stamp(age: timedelta) -> str:
    return (datetime.now(UTC) - age).strftime("%Y-%m-%dT%H:%M:%SZ")


def comment(github: GitHubServer, body: str, age: timedelta = timedelta(seconds=5)) -> dict:
    posted = github.add_comment(REPO, 12, body, login="dev")
    return comment_event(github, REPO, 12, posted, stamp(age))


def pushed(github: GitHubServer, head: str, age: timedelta, action: str = "synchronize") -> dict:
    """A `pull_request` delivery: `head` became the head `age` ago."""
    return pull_request_event(github, REPO, 12, head, stamp(age), action)


def test_a_signed_command_is_answered_at_once_then_dispatched_and_linked(github, receiver) -> None:
    answer = deliver(receiver, comment(github, "/specsnap run tier=3 seed=5"))
    assert answer.status_code == 202 and answer.text.strip() == "queued"
    eventually(lambda: github.repos[REPO].dispatches)
    (dispatch,) = github.repos[REPO].dispatches
    assert dispatch["ref"] == "main" and dispatch["return_run_details"] is True
    inputs = {"pull_request": "12", "commit": HEAD, "tier": "tier-3", "seed": "5"}
    assert dispatch["inputs"] == inputs
    eventually(lambda: len(github.repos[REPO].comments) == 2)
    reply = list(github.repos[REPO].comments.values())[-1]
    assert reply["user"]["login"] == "specsnap[bot]"  # written with the installation token
    assert "/octo/agent/actions/runs/" in reply["body"]
    assert github.calls("POST", r"^/app/installations/31/access_tokens$")
    health = requests.get(receiver + "healthz", timeout=10)
    assert health.status_code == 200
    eventually(lambda: requests.get(receiver + "healthz", timeout=10).json()["handled"] == 1)
    assert health.json()["status"] == "ok" and health.json()["workers"] == 2


@pytest.mark.skipif(bool(github_contract.available()), reason="the GHES descriptions are played")
@pytest.mark.parametrize("version", GHES_VERSIONS)
def test_on_ghes_without_run_details_the_reply_still_comes(github, receiver, version) -> None:
    """Each GHES SpecSnap supports, played against its own description (the delivery against
    its webhook schema too): none of 3.17-3.19 declares `return_run_details` or a 200 answer to
    a dispatch, so each answers 204 and no body. The run starts, and the reply points at the
    workflow instead of a run."""
    github.ghes = version
    assert not github.run_details  # what each of the three descriptions says
    answer = deliver(receiver, comment(github, "/specsnap run tier=3 seed=5"))
    assert answer.status_code == 202
    eventually(lambda: len(github.repos[REPO].comments) == 2)
    reply = list(github.repos[REPO].comments.values())[-1]
    assert reply["user"]["login"] == "specsnap[bot]"
    assert "follow it in the SpecSnap workflow" in reply["body"]
    assert [r["content"] for r in github.repos[REPO].reactions] == ["rocket"]
    (dispatch,) = github.calls("POST", r"/actions/workflows/[^/]+/dispatches$")
    assert dispatch.status == 204 and dispatch.body["return_run_details"] is True
    assert github.descriptions_held_to() == {f"ghes-{version}"}
    assert github.violations == []


def test_the_commit_is_the_head_when_the_command_was_written(github, receiver) -> None:
    """The maintainer saw REVIEWED and commented; the author pushed PUSHED_LATER before the bot
    got to the comment. REVIEWED is what runs."""
    reviewed = pushed(github, REVIEWED, timedelta(seconds=60))
    assert deliver(receiver, reviewed, delivery="p1", event="pull_request").ok
    github.repos[REPO].pulls[12]["head"]["sha"] = PUSHED_LATER  # what the API says by now
    answer = deliver(receiver, comment(github, "/specsnap run tier=2", timedelta(seconds=20)))
    assert answer.status_code == 202
    eventually(lambda: github.repos[REPO].dispatches)
    assert github.repos[REPO].dispatches[0]["inputs"]["commit"] == REVIEWED
    eventually(lambda: len(github.repos[REPO].comments) == 2)
    reply = list(github.repos[REPO].comments.values())[-1]["body"]
    assert f"`{REVIEWED[:12]}`" in reply


def test_a_head_that_moved_after_the_command_starts_nothing(github, receiver) -> None:
    """The receiver knows of a push after the comment and of no head before it: which commit
    the maintainer saw cannot be told, so nothing runs and the reply says why."""
    github.repos[REPO].pulls[12]["head"]["sha"] = PUSHED_LATER
    later = pushed(github, PUSHED_LATER, timedelta(seconds=1))
    assert deliver(receiver, later, delivery="p2", event="pull_request").ok
    answer = deliver(receiver, comment(github, "/specsnap run tier=2", timedelta(seconds=30)))
    assert answer.status_code == 202
    eventually(lambda: len(github.repos[REPO].comments) == 2)
    reply = list(github.repos[REPO].comments.values())[-1]["body"]
    assert "changed after your command" in reply and f"`{PUSHED_LATER[:12]}`" in reply
    assert github.repos[REPO].dispatches == []


def test_unsigned_stale_and_replayed_deliveries_do_nothing(github, receiver) -> None:
    payload = comment(github, "/specsnap run tier=2")
    assert deliver(receiver, payload, sign=False).status_code == 401
    stale = comment(github, "/specsnap run tier=2", age=timedelta(minutes=30))
    assert deliver(receiver, stale, delivery="d2").status_code == 400
    assert deliver(receiver, payload, delivery="d3").status_code == 202
    assert deliver(receiver, payload, delivery="d3").status_code == 409
    eventually(lambda: github.repos[REPO].dispatches)
    time.sleep(0.5)  # a second dispatch, were there one, would have come by now
    assert len(github.repos[REPO].dispatches) == 1


def test_pings_and_other_events_are_acknowledged(github, receiver) -> None:
    assert deliver(receiver, {"zen": "Keep it simple."}, event="ping").text.strip() == "pong"
    closed = pushed(github, HEAD, timedelta(seconds=1), action="closed")
    other = deliver(receiver, closed, delivery="d4", event="pull_request")
    assert other.status_code == 202 and other.text.strip() == "ignored pull_request"
    assert requests.get(receiver + "elsewhere", timeout=10).status_code == 405


@contextmanager
def serving(github: GitHubServer, data_dir: Path | None = None) -> Iterator[str]:
    """A receiver serving on a free port of 127.0.0.1 until the generator closes, with its
    record of deliveries in `data_dir` (in memory without one)."""
    config = AppConfig(APP_ID, github.app["private_key"], SECRET, github.api_url)  # type: ignore[index]
    server, service = build_receiver(config, "127.0.0.1", 0, workers=2, data_dir=data_dir)
    service.start()
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}/"
    finally:
        server.shutdown()
        server.server_close()
        service.stop(timeout=10)


def test_a_captured_body_under_a_new_delivery_id_starts_nothing(github, receiver) -> None:
    """Today the replay guard knew only delivery ids: the same signed comment under a new id
    started a second run."""
    payload = comment(github, "/specsnap run tier=2")
    assert deliver(receiver, payload, delivery="d1").status_code == 202
    eventually(lambda: github.repos[REPO].dispatches)
    replay = deliver(receiver, payload, delivery="d-new")
    assert replay.status_code == 409 and "already received in delivery d1" in replay.text
    time.sleep(0.5)  # a second dispatch, were there one, would have come by now
    assert len(github.repos[REPO].dispatches) == 1


def test_a_failed_delivery_redelivered_is_processed_once(github, receiver) -> None:
    """The evaluation workflow is missing at first, so the worker fails; once it is back,
    *Redeliver* (the same id) dispatches, and a second *Redeliver* is refused. Today both
    redeliveries got 409 and nothing ever ran."""
    workflow = github.repos[REPO].workflows.pop("specsnap.yml")
    payload = comment(github, "/specsnap run tier=2")
    assert deliver(receiver, payload, delivery="d1").status_code == 202
    eventually(lambda: requests.get(receiver + "healthz", timeout=10).json()["failed"] == 1)
    github.repos[REPO].workflows["specsnap.yml"] = workflow
    assert deliver(receiver, payload, delivery="d1").status_code == 202
    eventually(lambda: requests.get(receiver + "healthz", timeout=10).json()["handled"] == 1)
    assert deliver(receiver, payload, delivery="d1").status_code == 409
    assert len(github.repos[REPO].dispatches) == 1


def test_a_restarted_receiver_refuses_a_replay(github, tmp_path) -> None:
    """A new server and service over the same data directory still know the delivery and the
    comment; today the record was lost with the process."""
    payload = comment(github, "/specsnap run tier=2")
    with serving(github, tmp_path / "data") as url:
        assert deliver(url, payload, delivery="d1").status_code == 202
        eventually(lambda: requests.get(url + "healthz", timeout=10).json()["handled"] == 1)
    with serving(github, tmp_path / "data") as url:
        assert deliver(url, payload, delivery="d1").status_code == 409
        assert deliver(url, payload, delivery="d2").status_code == 409
    assert len(github.repos[REPO].dispatches) == 1


def test_an_installation_token_is_minted_once_and_refreshed_before_it_expires(github) -> None:
    """Today every delivery minted a token."""
    config = AppConfig(APP_ID, github.app["private_key"], SECRET, github.api_url)  # type: ignore[index]
    now = [datetime.now(UTC)]
    handler = AppHandler(config, HeadLog(), clock=lambda: now[0])
    minted = lambda: len(github.calls("POST", r"^/app/installations/31/access_tokens$"))  # noqa: E731
    for number in (1, 2):
        assert handler(Delivery("issue_comment", f"d{number}", comment(github, "/specsnap help")))
    assert minted() == 1
    now[0] += timedelta(minutes=56)  # the hour's token has less than 5 minutes left
    handler(Delivery("issue_comment", "d3", comment(github, "/specsnap help")))
    assert minted() == 2


def test_a_token_github_rejects_is_dropped(github) -> None:
    config = AppConfig(APP_ID, github.app["private_key"], SECRET, github.api_url)  # type: ignore[index]
    handler = AppHandler(config, HeadLog())
    handler(Delivery("issue_comment", "d1", comment(github, "/specsnap help")))
    github.tokens.pop("ghs_installation31")  # revoked, say
    with pytest.raises(PublishError, match="401"):
        handler(Delivery("issue_comment", "d2", comment(github, "/specsnap help")))
    assert handler(Delivery("issue_comment", "d3", comment(github, "/specsnap help"))) == "help"
    assert len(github.calls("POST", r"^/app/installations/31/access_tokens$")) == 2
