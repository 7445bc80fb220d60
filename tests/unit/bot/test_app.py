"""The GitHub App receiver over real HTTP: signed delivery in, installation token, dispatch out."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from wsgiref.simple_server import WSGIRequestHandler, make_server

import pytest
import requests
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa

from specsnap.bot.app import AppConfig, AppHandler
from specsnap.bot.webhook import make_app, signature
from tests.support.github_server import GitHubServer

REPO, HEAD, SECRET, APP_ID = "octo/agent", "f" * 40, b"app-secret", 4242


class Quiet(WSGIRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        return


@pytest.fixture
def github() -> Iterator[GitHubServer]:
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    private = key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    ).decode()
    public = (
        key.public_key()
        .public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
        .decode()
    )
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
    config = AppConfig(APP_ID, github.app["private_key"], SECRET, github.api_url)  # type: ignore[index]
    server = make_server("127.0.0.1", 0, make_app(SECRET, AppHandler(config)), handler_class=Quiet)
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}/"
    finally:
        server.shutdown()
        server.server_close()


def deliver(
    url: str,
    payload: dict,
    *,
    delivery: str = "d1",
    sign: bool = True,
    event: str = "issue_comment",
) -> requests.Response:
    body = json.dumps(payload).encode()
    headers = {"X-GitHub-Event": event, "X-GitHub-Delivery": delivery}
    if sign:
        headers["X-Hub-Signature-256"] = signature(SECRET, body)
    return requests.post(url, data=body, headers=headers, timeout=30)


def comment(github: GitHubServer, body: str, age: timedelta = timedelta(seconds=5)) -> dict:
    posted = github.add_comment(REPO, 12, body, login="dev")
    stamp = (datetime.now(UTC) - age).strftime("%Y-%m-%dT%H:%M:%SZ")
    return {
        "action": "created",
        "installation": {"id": 31},
        "repository": {"full_name": REPO},
        "issue": {"number": 12, "pull_request": {"url": "x"}},
        "comment": {
            "id": posted["id"],
            "body": body,
            "created_at": stamp,
            "updated_at": stamp,
            "user": {"login": "dev", "type": "User"},
        },
    }


def test_a_signed_command_dispatches_the_workflow_and_links_its_run(github, receiver) -> None:
    answer = deliver(receiver, comment(github, "/specsnap run tier=3 seed=5"))
    assert answer.status_code == 200 and answer.text.strip() == "started"
    (dispatch,) = github.repos[REPO].dispatches
    assert dispatch["ref"] == "main" and dispatch["return_run_details"] is True
    inputs = {"pull_request": "12", "commit": HEAD, "tier": "tier-3", "seed": "5"}
    assert dispatch["inputs"] == inputs
    reply = list(github.repos[REPO].comments.values())[-1]
    assert reply["user"]["login"] == "specsnap[bot]"  # written with the installation token
    assert "/octo/agent/actions/runs/" in reply["body"]
    assert github.calls("POST", r"^/app/installations/31/access_tokens$")


def test_unsigned_stale_and_replayed_deliveries_do_nothing(github, receiver) -> None:
    payload = comment(github, "/specsnap run tier=2")
    assert deliver(receiver, payload, sign=False).status_code == 401
    stale = comment(github, "/specsnap run tier=2", age=timedelta(minutes=30))
    assert deliver(receiver, stale, delivery="d2").status_code == 400
    assert deliver(receiver, payload, delivery="d3").status_code == 200
    assert deliver(receiver, payload, delivery="d3").status_code == 409
    assert len(github.repos[REPO].dispatches) == 1


def test_pings_and_other_events_are_acknowledged(github, receiver) -> None:
    assert deliver(receiver, {"zen": "Keep it simple."}, event="ping").text.strip() == "pong"
    other = deliver(receiver, {"action": "opened"}, delivery="d4", event="pull_request")
    assert other.status_code == 202
