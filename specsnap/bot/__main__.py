"""`python -m specsnap.bot serve`: run the GitHub App webhook receiver (stdlib WSGI server).

Configuration comes from the environment, so no secret appears on a command line:
SPECSNAP_APP_ID, SPECSNAP_APP_PRIVATE_KEY_FILE (PEM), SPECSNAP_WEBHOOK_SECRET,
GITHUB_API_URL (GitHub Enterprise; default GitHub.com) and SPECSNAP_WORKFLOW (default specsnap.yml).
Put it behind a TLS-terminating reverse proxy; it listens on loopback by default.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from wsgiref.simple_server import make_server

import click

from specsnap.bot.app import AppConfig, AppHandler
from specsnap.bot.webhook import make_app

DEFAULT_API_URL = "https://api.github.com"


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
    )


@click.group()
def main() -> None:
    """The SpecSnap GitHub App."""


@main.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", default=8080, show_default=True, help="Port to listen on.")
def serve(host: str, port: int) -> None:
    """Receive webhook deliveries until interrupted."""
    config = config_from_env(dict(os.environ))
    app = make_app(config.webhook_secret, AppHandler(config))
    with make_server(host, port, app) as server:
        click.echo(f"specsnap bot: listening on http://{host}:{port}/", err=True)
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            sys.exit(0)


if __name__ == "__main__":
    main()
