"""The bot's image (Dockerfile target `bot`) as docs/bot.md runs it, against the loopback
GitHub API (tests/support/github_server.py); the image is built on the Action's layers
(tests/support/docker_engine.py)."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import time
from pathlib import Path

import pytest
import requests

from specsnap.bot.webhook import signature
from tests.support.action_runner import HEAD, REPO
from tests.support.app_keys import app_key_pair
from tests.support.bot_events import comment_event
from tests.support.docker_engine import docker_logs
from tests.support.github_server import GitHubServer

pytestmark = [pytest.mark.docker, pytest.mark.slow, pytest.mark.xdist_group("docker")]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_the_bot_image_serves_the_app_answers_at_once_and_dispatches(
    bot_image: str, tmp_path: Path
) -> None:
    """The `bot` target as docs/bot.md runs it: an unprivileged service answering signed
    deliveries, healthy by its own health check, starting the workflow on the commented head."""
    pem, public = app_key_pair()
    key_file = tmp_path / "app.pem"
    key_file.write_text(pem)
    key_file.chmod(0o644)  # the container's account reads it through a read-only mount
    secret, port, name = "bot-secret", free_port(), f"specsnap-bot-test-{os.getpid()}"
    with GitHubServer(prefix="/api/v3", lifetime=300) as github:
        github.app = {"id": 4242, "public_key": public, "private_key": pem}
        repo = github.add_repo(REPO)
        repo.collaborators["dev"] = "write"
        workflow = {"id": 9, "name": "SpecSnap", "path": ".github/workflows/specsnap.yml"}
        repo.workflows["specsnap.yml"] = workflow
        github.add_pull(REPO, 12, HEAD)
        env = {
            "SPECSNAP_APP_ID": "4242",
            "SPECSNAP_WEBHOOK_SECRET": secret,
            "SPECSNAP_APP_PRIVATE_KEY_FILE": "/run/secrets/app.pem",
            "GITHUB_API_URL": github.api_url,
            "SPECSNAP_BOT_PORT": str(port),
        }
        run = ["docker", "run", "-d", "--rm", "--name", name, "--network", "host"]
        run += [f"--env={k}={v}" for k, v in env.items()]
        run += ["-v", f"{key_file}:/run/secrets/app.pem:ro", bot_image, "--host", "127.0.0.1"]
        started = subprocess.run(
            run,
            capture_output=True,
            text=True,
            check=False,
        )
        assert started.returncode == 0, started.stderr
        try:
            url = f"http://127.0.0.1:{port}/"
            deadline = time.monotonic() + 60
            while not bot_answers(url):
                assert time.monotonic() < deadline, docker_logs(name)
                time.sleep(0.5)
            check = subprocess.run(
                ["docker", "exec", name, "/opt/specsnap/venv/bin/specsnap-bot", "health"],
                capture_output=True,
                text=True,
                check=False,
            )
            assert check.returncode == 0 and '"status": "ok"' in check.stdout, check.stderr
            user = subprocess.run(
                ["docker", "exec", name, "id", "-u"], capture_output=True, text=True, check=False
            )
            assert user.stdout.strip() == "61200"
            posted = github.add_comment(REPO, 12, "/specsnap run tier=2 seed=3", login="dev")
            stamp = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
            body = json.dumps(comment_event(github, REPO, 12, posted, stamp)).encode()
            answer = requests.post(
                url,
                data=body,
                headers={
                    "X-GitHub-Event": "issue_comment",
                    "X-GitHub-Delivery": "docker-1",
                    "X-Hub-Signature-256": signature(secret.encode(), body),
                },
                timeout=10,
            )
            assert answer.status_code == 202 and answer.text.strip() == "queued"
            deadline = time.monotonic() + 60
            while len(repo.comments) < 2:
                assert time.monotonic() < deadline, docker_logs(name)
                time.sleep(0.2)
            (dispatch,) = repo.dispatches
            assert dispatch["inputs"] == {
                "pull_request": "12", "commit": HEAD, "tier": "tier-2", "seed": "3",
            }  # fmt: skip
            assert "started a SpecSnap evaluation of" in list(repo.comments.values())[-1]["body"]
        finally:
            stopped = subprocess.run(
                ["docker", "stop", "-t", "20", name], capture_output=True, text=True, check=False
            )
        assert stopped.returncode == 0, stopped.stderr


def bot_answers(url: str) -> bool:
    try:
        return requests.get(url + "healthz", timeout=2).status_code == 200
    except requests.RequestException:
        return False
