"""The live status of every seat of one event.

Each event has its own :class:`SeatMap`. Seats move through a small state
machine::

    AVAILABLE --hold--> HELD --sell--> SOLD
        ^                 |              |
        +----release------+----release---+
    AVAILABLE --block--> BLOCKED --unblock--> AVAILABLE

Every multi-seat operation is atomic: either all seats change or none do.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from enum import Enum

from events.errors import SeatStateError
from events.venues import Venue


class SeatStatus(str, Enum):
    """Status of one seat."""

    AVAILABLE = "available"
    HELD = "held"
    SOLD = "sold"
    BLOCKED = "blocked"


class SeatMap:
    """Seat statuses for one event at one venue."""

    def __init__(self, venue: Venue) -> None:
        self.venue = venue
        self._status: dict[str, SeatStatus] = {
            label: SeatStatus.AVAILABLE for label in venue.seat_labels()
        }

    def status(self, label: str) -> SeatStatus:
        """Current status of a seat (label in any accepted spelling)."""
        return self._status[self.venue.canonical_seat(label)]

    def is_available(self, label: str) -> bool:
        """Whether the seat can be held right now."""
        return self.status(label) is SeatStatus.AVAILABLE

    def available_seats(self, section_code: str | None = None) -> list[str]:
        """Available seats in seat order, optionally restricted to one section."""
        if section_code is None:
            labels: Iterable[str] = self.venue.seat_labels()
        else:
            labels = self.venue.section(section_code).seat_labels()
        return [label for label in labels if self._status[label] is SeatStatus.AVAILABLE]

    def row_statuses(self, section_code: str, row: str) -> list[tuple[str, SeatStatus]]:
        """``(label, status)`` for each seat of a row, left to right."""
        section = self.venue.section(section_code)
        return [(label, self._status[label]) for label in section.row_labels(row)]

    def counts(self) -> Counter[SeatStatus]:
        """How many seats are in each status, venue-wide."""
        return Counter(self._status.values())

    def hold(self, labels: Iterable[str]) -> list[str]:
        """Hold available seats; returns their canonical labels."""
        return self._transition(labels, {SeatStatus.AVAILABLE}, SeatStatus.HELD, "hold")

    def sell(self, labels: Iterable[str]) -> list[str]:
        """Mark held seats as sold."""
        return self._transition(labels, {SeatStatus.HELD}, SeatStatus.SOLD, "sell")

    def release(self, labels: Iterable[str]) -> list[str]:
        """Return held or sold seats to sale."""
        return self._transition(
            labels, {SeatStatus.HELD, SeatStatus.SOLD}, SeatStatus.AVAILABLE, "release"
        )

    def block(self, labels: Iterable[str]) -> list[str]:
        """Take available seats off sale (camera positions, mixing desk...)."""
        return self._transition(labels, {SeatStatus.AVAILABLE}, SeatStatus.BLOCKED, "block")

    def unblock(self, labels: Iterable[str]) -> list[str]:
        """Put blocked seats back on sale."""
        return self._transition(labels, {SeatStatus.BLOCKED}, SeatStatus.AVAILABLE, "unblock")

    def _transition(
        self,
        labels: Iterable[str],
        allowed: set[SeatStatus],
        target: SeatStatus,
        verb: str,
    ) -> list[str]:
        canonical = [self.venue.canonical_seat(label) for label in labels]
        if not canonical:
            raise ValueError(f"nothing to {verb}: no seats given")
        if len(set(canonical)) != len(canonical):
            raise ValueError(f"cannot {verb} the same seat twice in one call")
        refused = [label for label in canonical if self._status[label] not in allowed]
        if refused:
            raise SeatStateError(f"cannot {verb} seats {', '.join(refused)}", refused)
        for label in canonical:
            self._status[label] = target
        return canonical
