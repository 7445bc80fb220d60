"""Time slots: half-open intervals ``[start, end)`` of naive wall-clock time."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, datetime, timedelta

from .errors import CalendarError
from .timeutil import ensure_naive, format_datetime, format_time, minutes_between


@dataclass(frozen=True, order=True)
class TimeSlot:
    """A half-open interval of time, ``start`` inclusive and ``end`` exclusive.

    Two slots that merely touch (one ends when the other starts) do not overlap.
    """

    start: datetime
    end: datetime

    def __post_init__(self) -> None:
        ensure_naive(self.start)
        ensure_naive(self.end)
        if self.end <= self.start:
            raise CalendarError(
                f"slot must end after it starts: {format_datetime(self.start)}"
                f" .. {format_datetime(self.end)}"
            )

    @classmethod
    def from_duration(cls, start: datetime, minutes: int) -> TimeSlot:
        """The slot that starts at ``start`` and lasts ``minutes`` minutes."""
        if minutes <= 0:
            raise CalendarError(f"duration must be positive, got {minutes} minutes")
        return cls(start, start + timedelta(minutes=minutes))

    @property
    def duration_minutes(self) -> int:
        """Length of the slot in whole minutes."""
        return minutes_between(self.start, self.end)

    @property
    def day(self) -> date:
        """The calendar day the slot starts on."""
        return self.start.date()

    def overlaps(self, other: TimeSlot) -> bool:
        """True if the two slots share at least one instant."""
        return self.start < other.end and other.start < self.end

    def contains(self, moment: datetime) -> bool:
        """True if ``moment`` lies in ``[start, end)``."""
        return self.start <= moment < self.end

    def covers(self, other: TimeSlot) -> bool:
        """True if ``other`` lies entirely within this slot."""
        return self.start <= other.start and other.end <= self.end

    def shifted(self, minutes: int) -> TimeSlot:
        """The same slot moved by ``minutes`` (negative moves it earlier)."""
        delta = timedelta(minutes=minutes)
        return TimeSlot(self.start + delta, self.end + delta)

    def __str__(self) -> str:
        return f"{format_datetime(self.start)}-{format_time(self.end)}"


def split(window: TimeSlot, minutes: int) -> list[TimeSlot]:
    """Cut ``window`` into consecutive slots of exactly ``minutes`` minutes.

    A remainder shorter than ``minutes`` at the end of the window is dropped.
    """
    if minutes <= 0:
        raise CalendarError(f"slot length must be positive, got {minutes}")
    step = timedelta(minutes=minutes)
    result: list[TimeSlot] = []
    start = window.start
    while start + step <= window.end:
        result.append(TimeSlot(start, start + step))
        start += step
    return result


def subtract(window: TimeSlot, busy: Iterable[TimeSlot]) -> list[TimeSlot]:
    """The parts of ``window`` not covered by any slot in ``busy``, in time order."""
    free = [window]
    for taken in sorted(busy):
        remaining: list[TimeSlot] = []
        for piece in free:
            if not piece.overlaps(taken):
                remaining.append(piece)
                continue
            if piece.start < taken.start:
                remaining.append(TimeSlot(piece.start, taken.start))
            if taken.end < piece.end:
                remaining.append(TimeSlot(taken.end, piece.end))
        free = remaining
    return free
