"""What the receiver has seen: delivery ids and signed comment keys, so a replay acts on nothing.

A delivery is *claimed* when it is accepted (its `X-GitHub-Delivery` id and, for a comment, the
comment's key: its `comment.id` and `updated_at`, both inside the signed payload), and then
settled: *completed* once its work is done (handled, or deliberately ignored), or *released*
when it was not (answered 503, or its worker failed), so that GitHub's *Redeliver*, which sends
the same id again, is processed. A completed id is refused for good; a claimed one while it is
in flight; a comment key already claimed under another delivery id is a captured body replayed
with a new id (an edited comment has a new `updated_at`: a new command).

The record is a small SQLite database in the bot's data directory (in memory without one), so a
restart still refuses replays. It is bounded by age: a completed entry older than the freshness
window plus a margin is pruned, since a delivery that old is refused as stale anyway. Claims
still in flight when the process ended never completed: opening the record releases them.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Mapping
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

#: Kept beyond the freshness window, for clocks a little apart and deliveries slow to arrive.
MARGIN = timedelta(minutes=5)
#: The default freshness window (specsnap.bot.webhook) plus the margin.
DEFAULT_RETENTION = timedelta(minutes=5) + MARGIN
FILE_NAME = "deliveries.sqlite3"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS seen (
    key TEXT PRIMARY KEY,     -- 'delivery:<id>' or 'comment:<comment id>@<updated_at>'
    delivery TEXT NOT NULL,   -- the delivery id that claimed it
    done INTEGER NOT NULL,    -- 0 in flight, 1 completed
    at REAL NOT NULL          -- when it was claimed (POSIX seconds)
)
"""


def comment_key(event: str, payload: Mapping[str, Any]) -> str | None:
    """The signed identity of the comment an `issue_comment` delivery carries, else None."""
    comment = payload.get("comment") if event == "issue_comment" else None
    if not isinstance(comment, Mapping) or comment.get("id") is None:
        return None
    return f"{comment['id']}@{comment.get('updated_at') or comment.get('created_at') or ''}"


class ReplayGuard:
    """The record of claimed and completed deliveries; thread-safe. `path` None keeps it in
    memory (it is then lost with the process)."""

    def __init__(
        self, path: Path | None = None, *, retention: timedelta = DEFAULT_RETENTION
    ) -> None:
        self.path = path
        self._retention = retention.total_seconds()
        self._lock = threading.Lock()
        self._db = sqlite3.connect(
            ":memory:" if path is None else str(path), isolation_level=None, check_same_thread=False
        )
        with self._lock:
            self._db.execute(_SCHEMA)
            self._db.execute("DELETE FROM seen WHERE done = 0")

    @classmethod
    def in_directory(
        cls, data_dir: Path, *, retention: timedelta = DEFAULT_RETENTION
    ) -> ReplayGuard:
        """The record kept in `data_dir` (which must exist and be writable)."""
        return cls(data_dir / FILE_NAME, retention=retention)

    def claim(self, delivery_id: str, comment: str | None, now: datetime) -> str | None:
        """Claim a delivery and its comment key; None when claimed, else why it is a replay."""
        at = now.timestamp()
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                refusal = self._refusal(delivery_id, comment)
                if refusal is None:
                    self._db.execute(
                        "DELETE FROM seen WHERE done = 1 AND at < ?", (at - self._retention,)
                    )
                    keys = [f"delivery:{delivery_id}"] + ([f"comment:{comment}"] if comment else [])
                    self._db.executemany(
                        "INSERT INTO seen (key, delivery, done, at) VALUES (?, ?, 0, ?)",
                        [(key, delivery_id, at) for key in keys],
                    )
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")
        return refusal

    def complete(self, delivery_id: str) -> None:
        """The delivery's work is done: a redelivery of it is refused from now on."""
        with self._lock:
            self._db.execute("UPDATE seen SET done = 1 WHERE delivery = ?", (delivery_id,))

    def release(self, delivery_id: str) -> None:
        """The delivery's work was not done: a redelivery of it will be processed."""
        with self._lock:
            self._db.execute("DELETE FROM seen WHERE delivery = ? AND done = 0", (delivery_id,))

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def _refusal(self, delivery_id: str, comment: str | None) -> str | None:
        row = self._db.execute(
            "SELECT done FROM seen WHERE key = ?", (f"delivery:{delivery_id}",)
        ).fetchone()
        if row is not None:
            state = "was already handled" if row[0] else "is still being handled"
            return f"delivery {delivery_id} {state}"
        if comment is None:
            return None
        row = self._db.execute(
            "SELECT delivery FROM seen WHERE key = ?", (f"comment:{comment}",)
        ).fetchone()
        if row is not None:
            return f"comment {comment} was already received in delivery {row[0]}"
        return None
