"""Two human reviewers through the bot (the GitHub App receiver over real HTTP, against the
loopback GitHub) reviewing a real `specsnap run` of the fast fixture tier: the packet, a
non-writer refused, hidden-until-both on every reply, a disagreement reconciled by an agreed
rating, and the signed reviews section that `specsnap verify` checks, with scorecard.json left
byte for byte as it was."""

from __future__ import annotations

import hashlib
import json
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
import requests

from specsnap.bot.__main__ import build_receiver
from specsnap.bot.app import AppConfig
from specsnap.bot.webhook import signature
from specsnap.review.section import entry_digest
from tests.conftest import FIXTURE_TIERS
from tests.functional.cli import card, specsnap
from tests.support.app_keys import app_key_pair
from tests.support.bot_events import checked, comment_event
from tests.support.github_server import GitHubServer

REPO, NUMBER, SECRET, APP_ID = "octo/agent", 12, b"review-secret", 4343
BOT = "specsnap[bot]"
ALICE = 'q1=4 "no copy of existing logic" q2=5 "only the two tickets" q3=4 "short, named well" '
ALICE += 'q4=2 "the kg branch patches the report, not the unit" q5=4 "merge after a rename"'
BOB = 'q1=4 "nothing repeated" q2=4 "NOTES.md is extra" q3=5 "reads at once" '
BOB += 'q4=5 "fixed where it arose" q5=4 "would merge"'


@pytest.fixture
def github() -> Iterator[GitHubServer]:
    private, public = app_key_pair()
    with GitHubServer(prefix="/api/v3", lifetime=120) as gh:
        gh.app = {"id": APP_ID, "public_key": public, "private_key": private}
        repo = gh.add_repo(REPO)
        repo.collaborators.update(alice="write", bob="admin", carol="read")
        gh.add_pull(REPO, NUMBER, "f" * 40)
        yield gh


@contextmanager
def serving(github: GitHubServer, reviews: Path) -> Iterator[str]:
    private = github.app["private_key"]  # type: ignore[index]
    config = AppConfig(APP_ID, private, SECRET, github.api_url, reviews_dir=reviews)
    server, service = build_receiver(config, "127.0.0.1", 0, workers=2)
    service.start()
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}/"
    finally:
        server.shutdown()
        server.server_close()
        service.stop(timeout=10)


class Thread:
    """The pull request's conversation: say something as someone, wait for the bot's answer."""

    def __init__(self, github: GitHubServer, url: str) -> None:
        self.github, self.url, self.sent = github, url, 0

    def say(self, login: str, body: str) -> tuple[int, str]:
        """(the comment's id, the bot's reply to it)."""
        before = len(self.replies())
        posted = self.github.add_comment(REPO, NUMBER, body, login=login)
        at = (datetime.now(UTC) - timedelta(seconds=2)).strftime("%Y-%m-%dT%H:%M:%SZ")
        payload = json.dumps(
            checked("issue_comment", comment_event(self.github, REPO, NUMBER, posted, at))
        )
        self.sent += 1
        headers = {
            "X-GitHub-Event": "issue_comment",
            "X-GitHub-Delivery": f"d{self.sent}",
            "X-Hub-Signature-256": signature(SECRET, payload.encode()),
        }
        assert requests.post(self.url, data=payload, headers=headers, timeout=30).status_code == 202
        deadline = time.monotonic() + 30
        while len(self.replies()) == before:
            assert time.monotonic() < deadline, f"no reply to {login}'s comment"
            time.sleep(0.05)
        return int(posted["id"]), self.replies()[-1]

    def replies(self) -> list[str]:
        comments = self.github.repos[REPO].comments.values()
        return [c["body"] for c in comments if c["user"]["login"] == BOT]

    def has(self, comment_id: int) -> bool:
        return comment_id in self.github.repos[REPO].comments


def test_two_reviewers_reconciled_through_the_bot_end_as_a_verified_section(
    github: GitHubServer, tmp_path: Path
) -> None:
    reviews = tmp_path / "reviews"
    run_dir = reviews / REPO / str(NUMBER)
    made = specsnap(
        "run",
        "--tier",
        "90",
        "--agent",
        "notetaker",
        "--seed",
        "3",
        "--out",
        str(run_dir),
        tiers=FIXTURE_TIERS,
    )
    assert made.returncode == 0, made.stderr
    scorecard_bytes = (run_dir / "scorecard.json").read_bytes()
    scores, digest = card(run_dir)["scores"], card(run_dir)["receipt"]["scorecard_sha256"]

    with serving(github, reviews) as url:
        pr = Thread(github, url)
        _, packet = pr.say("alice", "/specsnap review")
        assert "SpecSnap review packet" in packet and "units/convert.py" in packet
        assert "Would you accept this pull request?" in packet and digest in packet

        carol, refused = pr.say("carol", "/specsnap review " + BOB)
        assert "needs write access" in refused and "`read`" in refused
        assert not (run_dir / "reviews.json").exists() and pr.has(carol)

        alice, recorded = pr.say("alice", "/specsnap review " + ALICE)
        assert "1 of 2 reviewers have rated" in recorded and "hidden" in recorded
        assert not pr.has(alice), "the rating comment is removed once recorded"
        _, asked = pr.say("bob", "/specsnap review")  # bob reads the packet before rating
        for reply in (recorded, asked):
            assert "the kg branch" not in reply and "merge after a rename" not in reply
            assert "| q4" not in reply, "no rating table before the second reviewer"

        _, combined = pr.say("bob", "/specsnap review " + BOB)
        assert "| q4 repair | `alice` 2, `bob` 5 | — | needs a reconciliation |" in combined
        assert "| q1 duplication | `alice` 4, `bob` 4 | 4 | mean of two |" in combined
        assert "Reconciliation needed" in combined and "on q4" in combined

        _, again = pr.say("bob", "/specsnap review " + BOB)
        assert "has rated already" in again

        _, done = pr.say("alice", '/specsnap review agreed q4=4 "fixed in convert, report kept"')
        assert (
            "| q4 repair | `alice` 2, `bob` 5; agreed 4 (`alice`) | 4 | agreed by alice |" in done
        )
        assert "the kg branch patches the report" in done and "fixed where it arose" in done
        assert "Review complete" in done and "reconciled mean 4.20 of 5" in done
    assert github.violations == []

    assert (run_dir / "scorecard.json").read_bytes() == scorecard_bytes
    assert card(run_dir)["scores"] == scores
    section = json.loads((run_dir / "reviews.json").read_text())
    assert section["scorecard_sha256"] == digest
    sources = [(e["reviewer"], e["kind"], e["source"]["author"]) for e in section["entries"]]
    assert sources == [
        ("alice", "rating", "alice"),
        ("bob", "rating", "bob"),
        ("alice", "agreed", "alice"),
    ]
    assert section["entries"][0]["source"]["comment_id"] == alice

    verified = specsnap("verify", str(run_dir / "scorecard.json"), tiers=FIXTURE_TIERS)
    assert verified.returncode == 0, verified.stdout
    assert "ok   reviews: 3 entries chained to this scorecard" in verified.stdout
    assert "complete" in verified.stdout
    # Every entry the bot recorded carries its signature, which the App's public key checks.
    key = tmp_path / "app-public.pem"
    key.write_text(github.app["public_key"])
    scorecard = str(run_dir / "scorecard.json")
    signed = specsnap("verify", scorecard, "--reviews-key", str(key), tiers=FIXTURE_TIERS)
    assert signed.returncode == 0 and "the bot's signatures hold" in signed.stdout, signed.stdout
    pristine = json.dumps(section)

    section["entries"][1]["scores"]["q4"]["score"] = 3  # bob's 5 made a 3
    (run_dir / "reviews.json").write_text(json.dumps(section))
    tampered = specsnap("verify", str(run_dir / "scorecard.json"), tiers=FIXTURE_TIERS)
    assert tampered.returncode == 1
    assert "FAIL reviews: entry 1 (bob, rating)" in tampered.stdout
    assert "the entry was altered" in tampered.stdout
    # A forger who also rewrites every digest after the altered rating keeps the chain whole,
    # but cannot sign it as the bot: the key finds it.
    forged = rechained(json.loads(pristine), bobs_q4_made_4)
    (run_dir / "reviews.json").write_text(json.dumps(forged))
    unsigned = specsnap("verify", scorecard, tiers=FIXTURE_TIERS)
    assert unsigned.returncode == 0 and "signatures not checked" in unsigned.stdout, unsigned.stdout
    caught = specsnap("verify", scorecard, "--reviews-key", str(key), tiers=FIXTURE_TIERS)
    assert caught.returncode == 1
    assert "entry 1 (bob, rating): its signature is over another entry" in caught.stdout
    assert (
        hashlib.sha256((run_dir / "scorecard.json").read_bytes()).digest()
        == hashlib.sha256(scorecard_bytes).digest()
    )


def rechained(section: dict[str, Any], change: Callable[[dict[str, Any]], Any]) -> dict[str, Any]:
    """`section` changed by `change`, every digest recomputed after it (signatures kept)."""
    change(section)
    previous = section["scorecard_sha256"]
    for entry in section["entries"]:
        entry["previous"] = previous
        entry["digest"] = previous = entry_digest(entry)
    section["head"] = previous
    return section


def bobs_q4_made_4(section: dict[str, Any]) -> None:
    section["entries"][1]["scores"]["q4"]["score"] = 4  # still two apart: the rules admit it
