"""The bot as a service: answer each webhook delivery at once, do the API work after.

GitHub waits at most 10 seconds for an answer and does not retry a delivery that timed out, while
acting on a command takes several API calls (permission, reaction, dispatch, reply). So the
receiver only checks the delivery (signature, freshness, replay: specsnap.bot.webhook) and sorts
it: a `pull_request` delivery updates the record of heads there and then (it must be in place
before any later comment is handled), an `issue_comment` that may hold a command is queued for a
pool of worker threads, anything else is acknowledged and dropped. A full queue answers 503, so
GitHub shows the delivery as failed and a maintainer can redeliver it. Each delivery is settled
in the replay guard (specsnap.bot.replays) once its fate is known: completed when answered
without queueing or when its worker finished, released when it was answered 503 or its worker
raised, so that *Redeliver* (the same delivery id) is processed then and refused after.
`health()` is what `GET /healthz` reports.
"""

from __future__ import annotations

import queue
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TextIO

from specsnap.bot.heads import HeadLog
from specsnap.bot.replays import ReplayGuard
from specsnap.bot.respond import comment_event
from specsnap.bot.webhook import Delivery

#: Does the API work for one queued delivery; returns what happened, for the log, or raises
#: when the work could not be done (the delivery may then be redelivered).
Worker = Callable[[Delivery], str]


@dataclass(frozen=True)
class Health:
    ok: bool
    queued: int
    handled: int
    failed: int
    workers: int

    def as_dict(self) -> dict[str, Any]:
        return {
            "status": "ok" if self.ok else "unhealthy",
            "queued": self.queued,
            "handled": self.handled,
            "failed": self.failed,
            "workers": self.workers,
        }


class BotService:
    """Sorts verified deliveries; `workers` threads run `work` on the queued comments. `guard`
    is the one the receiver claims deliveries in (specsnap.bot.webhook.make_app)."""

    def __init__(
        self,
        work: Worker,
        heads: HeadLog,
        *,
        workers: int = 4,
        capacity: int = 1000,
        log: TextIO | None = None,
        guard: ReplayGuard | None = None,
    ) -> None:
        self._work = work
        self.heads = heads
        self.guard = guard or ReplayGuard()
        self._queue: queue.Queue[Delivery | None] = queue.Queue(maxsize=capacity)
        self._threads = [
            threading.Thread(target=self._serve, name=f"specsnap-bot-{n}", daemon=True)
            for n in range(workers)
        ]
        self._log = log or sys.stderr
        self._lock = threading.Lock()
        self._handled = 0
        self._failed = 0

    def start(self) -> None:
        for thread in self._threads:
            thread.start()

    def stop(self, timeout: float = 30.0) -> None:
        """Let the workers finish what is queued (at most `timeout` seconds each), then end."""
        for _ in self._threads:
            self._queue.put(None)
        for thread in self._threads:
            thread.join(timeout)

    def receive(self, delivery: Delivery) -> tuple[int, str]:
        """The answer to a verified delivery (HTTP status, short text), given at once."""
        answer = self._answer_at_once(delivery)
        if answer is not None:
            self.guard.complete(delivery.delivery_id)
            return answer
        try:
            self._queue.put_nowait(delivery)
        except queue.Full:
            self.guard.release(delivery.delivery_id)
            return 503, "busy: too many deliveries waiting; redeliver this one later"
        return 202, "queued"

    def _answer_at_once(self, delivery: Delivery) -> tuple[int, str] | None:
        """The answer to a delivery that needs no worker; None for a comment to queue."""
        if delivery.event == "ping":
            return 200, "pong"
        if delivery.event == "pull_request":
            recorded = self.heads.record(delivery.payload)
            return 202, "head recorded" if recorded else "ignored pull_request"
        if delivery.event != "issue_comment" or comment_event(delivery.payload) is None:
            return 202, f"ignored {delivery.event}"
        return None

    def health(self) -> Health:
        alive = sum(thread.is_alive() for thread in self._threads)
        with self._lock:
            handled, failed = self._handled, self._failed
        return Health(alive == len(self._threads), self._queue.qsize(), handled, failed, alive)

    def _serve(self) -> None:
        while (delivery := self._queue.get()) is not None:
            try:
                outcome = self._work(delivery)
            except Exception as exc:  # one bad delivery must not stop the worker
                self.guard.release(delivery.delivery_id)
                self._note(delivery, f"failed: {type(exc).__name__}: {exc}", failed=True)
            else:
                self.guard.complete(delivery.delivery_id)
                self._note(delivery, outcome, failed=False)

    def _note(self, delivery: Delivery, outcome: str, *, failed: bool) -> None:
        with self._lock:
            if failed:
                self._failed += 1
            else:
                self._handled += 1
        print(f"specsnap bot: delivery {delivery.delivery_id}: {outcome}", file=self._log)
