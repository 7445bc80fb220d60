"""`specsnap-bot`: the GitHub App receiver as a service, its health check and its manifest.

`serve` answers every webhook delivery at once and does the API work in worker threads
(specsnap.bot.service), with `GET /healthz` for the container's health check. Configuration
comes from the environment, so no secret appears on a command line: SPECSNAP_APP_ID,
SPECSNAP_APP_PRIVATE_KEY_FILE (PEM), SPECSNAP_WEBHOOK_SECRET, GITHUB_API_URL (GitHub Enterprise;
default GitHub.com) and SPECSNAP_WORKFLOW (default specsnap.yml); the data directory, where the
record of seen deliveries outlives a restart, is `--data-dir` or SPECSNAP_BOT_DATA_DIR (without
one the record is kept in memory); SPECSNAP_BOT_REVIEWS_DIR holds the runs under review
(`/specsnap review`, specsnap.bot.reviews; without it reviews are off). Put it behind a
TLS-terminating reverse proxy; it listens on loopback unless told otherwise. How to deploy it:
docs/bot.md.
"""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import threading
import urllib.error
import urllib.request
from pathlib import Path
from socketserver import ThreadingMixIn
from types import FrameType
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server

import click

from specsnap.bot.app import AppConfig, AppHandler
from specsnap.bot.heads import HeadLog
from specsnap.bot.manifest import app_manifest
from specsnap.bot.replays import ReplayGuard
from specsnap.bot.service import BotService
from specsnap.bot.webhook import HEALTH_PATH, make_app

DEFAULT_API_URL = "https://api.github.com"
PORT_ENV = "SPECSNAP_BOT_PORT"
DATA_DIR_ENV = "SPECSNAP_BOT_DATA_DIR"
REVIEWS_DIR_ENV = "SPECSNAP_BOT_REVIEWS_DIR"


def config_from_env(env: dict[str, str]) -> AppConfig:
    """The App's configuration; a UsageError names every missing variable at once."""
    missing = [
        name
        for name in ("SPECSNAP_APP_ID", "SPECSNAP_APP_PRIVATE_KEY_FILE", "SPECSNAP_WEBHOOK_SECRET")
        if not env.get(name)
    ]
    if missing:
        raise click.UsageError(f"set {', '.join(missing)} in the environment")
    if not env["SPECSNAP_APP_ID"].isdigit():
        raise click.UsageError("SPECSNAP_APP_ID must be the App's numeric id")
    key_file = Path(env["SPECSNAP_APP_PRIVATE_KEY_FILE"])
    try:
        private_key = key_file.read_text(encoding="utf-8")
    except OSError as exc:
        message = f"cannot read SPECSNAP_APP_PRIVATE_KEY_FILE {key_file}: {exc}"
        raise click.UsageError(message) from None
    return AppConfig(
        app_id=int(env["SPECSNAP_APP_ID"]),
        private_key=private_key,
        webhook_secret=env["SPECSNAP_WEBHOOK_SECRET"].encode(),
        api_url=env.get("GITHUB_API_URL") or DEFAULT_API_URL,
        workflow=env.get("SPECSNAP_WORKFLOW") or "specsnap.yml",
        reviews_dir=Path(env[REVIEWS_DIR_ENV]) if env.get(REVIEWS_DIR_ENV) else None,
    )


class ThreadingServer(ThreadingMixIn, WSGIServer):
    """One thread per connection: a slow client never holds up another delivery."""

    daemon_threads = True


class QuietHandler(WSGIRequestHandler):
    """Logs requests without client addresses (the proxy's log has them)."""

    def log_message(self, format: str, *args: object) -> None:
        click.echo(f"specsnap bot: {format % args}", err=True)


def open_replay_guard(data_dir: Path | None) -> ReplayGuard:
    """The record of seen deliveries in `data_dir` (created if missing), or in memory without
    one; a UsageError when the directory cannot be written."""
    if data_dir is None:
        return ReplayGuard()
    try:
        data_dir.mkdir(parents=True, exist_ok=True)
        if not os.access(data_dir, os.W_OK | os.X_OK):
            raise PermissionError("not writable by this account")
        return ReplayGuard.in_directory(data_dir)
    except (OSError, sqlite3.Error) as exc:
        raise click.UsageError(
            f"cannot keep the record of deliveries in the data directory {data_dir}: {exc}; "
            f"give --data-dir (or {DATA_DIR_ENV}) a directory the bot's account may write"
        ) from None


def build_receiver(
    config: AppConfig, host: str, port: int, workers: int = 4, data_dir: Path | None = None
) -> tuple[ThreadingServer, BotService]:
    """The receiver's HTTP server (bound, not yet serving) and its service (not yet started)."""
    heads = HeadLog()
    guard = open_replay_guard(data_dir)
    service = BotService(AppHandler(config, heads), heads, workers=workers, guard=guard)
    app = make_app(config.webhook_secret, service.receive, health=service.health, guard=guard)
    server = make_server(host, port, app, server_class=ThreadingServer, handler_class=QuietHandler)
    return server, service


@click.group()
def main() -> None:
    """The SpecSnap GitHub App."""


@main.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", default=8080, show_default=True, envvar=PORT_ENV, help="Port to listen on.")
@click.option("--workers", default=4, show_default=True, help="Threads doing the API work.")
@click.option(
    "--data-dir",
    envvar=DATA_DIR_ENV,
    type=click.Path(file_okay=False, path_type=Path),
    help="Where the record of seen deliveries outlives a restart (default: memory only).",
)
def serve(host: str, port: int, workers: int, data_dir: Path | None) -> None:
    """Receive webhook deliveries until stopped (SIGTERM or SIGINT finish the queued work)."""
    config = config_from_env(dict(os.environ))
    server, service = build_receiver(config, host, port, workers, data_dir)
    if data_dir is None:
        click.echo(
            f"specsnap bot: no --data-dir or {DATA_DIR_ENV}: replays are refused only until "
            "the service restarts",
            err=True,
        )

    def stop(signum: int, frame: FrameType | None) -> None:
        # shutdown() waits for serve_forever() to return, so it cannot run on its thread.
        threading.Thread(target=server.shutdown, daemon=True).start()

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    service.start()
    click.echo(f"specsnap bot: listening on http://{host}:{server.server_port}/", err=True)
    try:
        server.serve_forever()
    finally:
        server.server_close()
        service.stop()
        click.echo("specsnap bot: stopped", err=True)


@main.command()
@click.option("--port", default=8080, show_default=True, envvar=PORT_ENV)
def health(port: int) -> None:
    """Exit 0 when the local receiver reports itself healthy (the container's health check)."""
    url = f"http://127.0.0.1:{port}{HEALTH_PATH}"
    try:
        with urllib.request.urlopen(url, timeout=4) as response:
            click.echo(response.read().decode().strip())
    except (urllib.error.URLError, OSError) as exc:
        raise click.ClickException(f"{url}: {exc}") from None


@main.command()
@click.option("--name", default="SpecSnap", show_default=True, help="The App's name on GitHub.")
@click.option("--homepage", required=True, help="A page about the App (your repository, say).")
@click.option("--webhook-url", required=True, help="Where GitHub delivers (the receiver, public).")
@click.option("--redirect-url", help="Where GitHub sends the one-time code (default: homepage).")
def manifest(name: str, homepage: str, webhook_url: str, redirect_url: str | None) -> None:
    """Print the App's manifest, to register it with GitHub (docs/bot.md)."""
    document = app_manifest(name, homepage, webhook_url, redirect_url)
    click.echo(json.dumps(document, indent=2))


if __name__ == "__main__":
    main()
