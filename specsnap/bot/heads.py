"""Which commit a `/specsnap run` comment is about: the pull request's head when it was written.

A maintainer reads a pull request, then comments. If the author pushes in between the comment and
the moment the bot acts on it, the pushed commit must not run with the repository's secrets on
the maintainer's word. GitHub's comment event does not carry the head commit, and a commit's own
dates are whatever its author wrote, so the receiver keeps its own record: every `pull_request`
delivery (opened, reopened, synchronize), signed by GitHub, says which commit became the head and
when (`pull_request.updated_at`). `pin_head` answers from that record; a pull request the record
does not cover from before the comment is read from the API, unless a delivery already told that
the head moved after the comment, in which case nothing is pinned (`HeadMoved`).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from specsnap.errors import UsageError

#: `pull_request` actions that set the head commit.
HEAD_ACTIONS = frozenset({"opened", "reopened", "synchronize"})
#: Pull requests remembered (the oldest is forgotten first); a few heads each.
MAX_PULLS = 5_000
MAX_HEADS = 20


class HeadMoved(UsageError):
    """The pull request's head changed after the comment, and the commented head is unknown."""

    def __init__(self, now: str) -> None:
        super().__init__(f"the head moved to {now[:12]} after the command was written")
        self.now = now


@dataclass(frozen=True)
class HeadChange:
    sha: str
    at: datetime


class HeadLog:
    """Head commits of pull requests, as signed `pull_request` deliveries reported them."""

    def __init__(self) -> None:
        self._heads: dict[tuple[str, int], list[HeadChange]] = {}
        self._lock = threading.Lock()

    def record(self, payload: Mapping[str, Any]) -> bool:
        """Note the head a `pull_request` delivery reports; whether it set one."""
        pull = payload.get("pull_request") or {}
        head = (pull.get("head") or {}).get("sha")
        stamp = pull.get("updated_at")
        repo = (payload.get("repository") or {}).get("full_name")
        number = payload.get("number", pull.get("number"))
        if payload.get("action") not in HEAD_ACTIONS or not (head and stamp and repo and number):
            return False
        change = HeadChange(str(head), datetime.fromisoformat(str(stamp).replace("Z", "+00:00")))
        with self._lock:
            changes = self._heads.pop((str(repo), int(number)), [])
            changes = sorted([*changes, change], key=lambda c: c.at)[-MAX_HEADS:]
            self._heads[(str(repo), int(number))] = changes  # now the newest pull request
            while len(self._heads) > MAX_PULLS:
                del self._heads[next(iter(self._heads))]
        return True

    def head_at(self, repo: str, number: int, when: datetime) -> str | None:
        """The head recorded as current at `when`; None when the record starts after it."""
        with self._lock:
            before = [c for c in self._heads.get((repo, number), []) if c.at <= when]
        return before[-1].sha if before else None

    def moved_after(self, repo: str, number: int, when: datetime) -> bool:
        """Whether a delivery reported a new head after `when`."""
        with self._lock:
            return any(c.at > when for c in self._heads.get((repo, number), []))


def pin_head(
    log: HeadLog, repo: str, number: int, written: datetime | None, current: Callable[[], str]
) -> str:
    """The head of pull request `number` when the comment was `written`: from `log`, else the
    current head (`current()`), unless the log knows the head moved after the comment."""
    if written is None:
        return current()
    recorded = log.head_at(repo, number, written)
    if recorded is not None:
        return recorded
    now = current()
    if log.moved_after(repo, number, written):
        raise HeadMoved(now)
    return now
