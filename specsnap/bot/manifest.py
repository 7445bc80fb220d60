"""The GitHub App's manifest: what a maintainer registers the bot with (docs/bot.md).

GitHub creates an App from this document in one step ("register a GitHub App from a manifest")
and hands back its id, private key and webhook secret. The permissions are the least the bot
needs: read a commenter's permission (metadata), read the pull request and answer on it (pull
requests, issues), start the evaluation workflow (actions); the events are the commands
(`issue_comment`) and the heads they are pinned to (`pull_request`).
"""

from __future__ import annotations

from typing import Any

PERMISSIONS = {
    "actions": "write",
    "issues": "write",
    "metadata": "read",
    "pull_requests": "write",
}
EVENTS = ["issue_comment", "pull_request"]


def app_manifest(
    name: str, homepage: str, webhook_url: str, redirect_url: str | None = None
) -> dict[str, Any]:
    """The manifest of a SpecSnap App called `name` whose receiver listens at `webhook_url`;
    GitHub sends the registration's one-time code to `redirect_url` (default `homepage`)."""
    return {
        "name": name,
        "url": homepage,
        "hook_attributes": {"url": webhook_url, "active": True},
        "redirect_url": redirect_url or homepage,
        "public": False,
        "default_permissions": dict(PERMISSIONS),
        "default_events": list(EVENTS),
    }
