"""Seat holds: seats reserved for a customer while they check out.

A hold lasts :data:`DEFAULT_HOLD_TTL` unless the manager is configured
otherwise. When it expires its seats return to sale. Hold ids are
``"H0001"``, ``"H0002"``... in creation order.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from booking.errors import HoldExpiredError, SeatUnavailableError, UnknownHoldError
from events import SeatMap, SeatStateError

#: How long a hold lasts by default.
DEFAULT_HOLD_TTL = timedelta(minutes=10)


@dataclass
class Hold:
    """Seats reserved for one checkout.

    Attributes:
        hold_id: ``"H0001"``...
        event_id: the event the seats belong to.
        seats: canonical seat labels.
        created_at: when the hold was placed.
        expires_at: first moment the hold is no longer valid.
    """

    hold_id: str
    event_id: str
    seats: tuple[str, ...]
    created_at: datetime
    expires_at: datetime

    def is_expired(self, now: datetime) -> bool:
        """Whether the hold has run out at ``now``."""
        return now >= self.expires_at


class HoldManager:
    """Places, expires and consumes holds across events."""

    def __init__(self, ttl: timedelta = DEFAULT_HOLD_TTL) -> None:
        if ttl <= timedelta(0):
            raise ValueError("hold ttl must be positive")
        self.ttl = ttl
        self._holds: dict[str, tuple[Hold, SeatMap]] = {}
        self._counter = 0

    def __len__(self) -> int:
        return len(self._holds)

    def place(self, event_id: str, seatmap: SeatMap, seats: Sequence[str], now: datetime) -> Hold:
        """Hold ``seats`` of ``seatmap`` for :attr:`ttl` from ``now``.

        Raises:
            SeatUnavailableError: a seat is not available; nothing is held.
        """
        try:
            labels = seatmap.hold(seats)
        except SeatStateError as exc:
            raise SeatUnavailableError(str(exc), exc.seats) from exc
        self._counter += 1
        hold = Hold(
            hold_id=f"H{self._counter:04d}",
            event_id=event_id,
            seats=tuple(labels),
            created_at=now,
            expires_at=now + self.ttl,
        )
        self._holds[hold.hold_id] = (hold, seatmap)
        return hold

    def get(self, hold_id: str) -> Hold:
        """The active hold ``hold_id``.

        Raises:
            UnknownHoldError: no such active hold.
        """
        try:
            return self._holds[hold_id][0]
        except KeyError:
            raise UnknownHoldError(f"no active hold {hold_id!r}") from None

    def release(self, hold_id: str) -> Hold:
        """Give the seats of a hold back and forget it."""
        self.get(hold_id)
        hold, seatmap = self._holds.pop(hold_id)
        seatmap.release(hold.seats)
        return hold

    def expire_due(self, now: datetime) -> list[str]:
        """Release every hold expired at ``now``; returns their ids in order."""
        due = [hid for hid, (hold, _) in self._holds.items() if hold.is_expired(now)]
        for hold_id in due:
            self.release(hold_id)
        return due

    def consume(self, hold_id: str, now: datetime) -> tuple[Hold, SeatMap]:
        """Take a live hold out of the manager for checkout.

        The seats stay HELD; the caller sells them.

        Raises:
            UnknownHoldError: no such active hold.
            HoldExpiredError: the hold expired; its seats are released.
        """
        hold = self.get(hold_id)
        if hold.is_expired(now):
            self.release(hold_id)
            raise HoldExpiredError(f"hold {hold_id} expired at {hold.expires_at.isoformat()}")
        return self._holds.pop(hold_id)
