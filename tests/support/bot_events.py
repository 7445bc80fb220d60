"""Webhook deliveries as GitHub sends them to the bot, for the tests that play them."""

from __future__ import annotations

from typing import Any


def comment_event(repo: str, number: int, posted: dict[str, Any], at: str) -> dict[str, Any]:
    """An `issue_comment` delivery (action `created`) for the comment `posted` on pull request
    `number`, written at `at` (ISO 8601, UTC) by its author, from installation 31."""
    return {
        "action": "created",
        "installation": {"id": 31},
        "repository": {"full_name": repo},
        "issue": {"number": number, "pull_request": {"url": "x"}},
        "comment": {
            "id": posted["id"],
            "body": posted["body"],
            "created_at": at,
            "updated_at": at,
            "user": {"login": posted["user"]["login"], "type": "User"},
        },
    }
