"""Reminders waiting to be sent, and those already sent."""

from __future__ import annotations

from datetime import datetime

from .planner import Reminder


class Outbox:
    """A queue of reminders keyed by ``(appointment_id, send_at)``.

    Queuing the same reminder twice is a no-op, even after it was sent, so re-planning
    never sends a duplicate.
    """

    def __init__(self) -> None:
        self._pending: dict[tuple[str, datetime], Reminder] = {}
        self._sent: dict[tuple[str, datetime], Reminder] = {}

    @staticmethod
    def _key(reminder: Reminder) -> tuple[str, datetime]:
        return (reminder.appointment_id, reminder.send_at)

    def queue(self, reminder: Reminder) -> bool:
        """Queue a reminder; returns False if it is already pending or was sent."""
        key = self._key(reminder)
        if key in self._pending or key in self._sent:
            return False
        self._pending[key] = reminder
        return True

    def due(self, at: datetime) -> list[Reminder]:
        """Pending reminders whose send time is not after ``at``, oldest first."""
        ready = [r for r in self._pending.values() if r.send_at <= at]
        return sorted(ready, key=lambda r: (r.send_at, r.appointment_id))

    def mark_sent(self, reminder: Reminder) -> None:
        """Move a pending reminder to the sent list."""
        key = self._key(reminder)
        if key not in self._pending:
            raise ValueError(f"reminder for {reminder.appointment_id} is not pending")
        self._sent[key] = self._pending.pop(key)

    def discard_for(self, appointment_id: str) -> int:
        """Drop every pending reminder of an appointment; returns how many were dropped."""
        keys = [key for key in self._pending if key[0] == appointment_id]
        for key in keys:
            del self._pending[key]
        return len(keys)

    def pending(self) -> list[Reminder]:
        """Pending reminders, oldest first."""
        return sorted(self._pending.values(), key=lambda r: (r.send_at, r.appointment_id))

    def sent(self) -> list[Reminder]:
        """Sent reminders, oldest first."""
        return sorted(self._sent.values(), key=lambda r: (r.send_at, r.appointment_id))
