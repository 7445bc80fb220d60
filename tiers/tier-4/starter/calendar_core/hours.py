"""Weekly opening hours of the clinic."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import date, datetime, time
from itertools import pairwise

from .errors import CalendarError
from .slots import TimeSlot
from .timeutil import WEEKDAY_NAMES, combine, format_time

#: One opening range on one day: ``(opens, closes)``, ``opens < closes``.
Interval = tuple[time, time]


class WorkingHours:
    """Opening ranges for each weekday (0 = Monday ... 6 = Sunday).

    A day without ranges is closed. The ranges of a day are kept sorted; they must not
    overlap, though one may start exactly when the previous one closes.

    >>> hours = WorkingHours({0: [(time(9), time(12))]})
    >>> hours.is_open_at(datetime(2024, 3, 4, 10, 0))   # a Monday
    True
    """

    def __init__(self, schedule: Mapping[int, Iterable[Interval]]) -> None:
        days: dict[int, tuple[Interval, ...]] = {weekday: () for weekday in range(7)}
        for weekday, ranges in schedule.items():
            if weekday not in days:
                raise CalendarError(f"weekday must be 0..6, got {weekday!r}")
            days[weekday] = _checked_ranges(weekday, ranges)
        self._days = days

    @classmethod
    def standard(cls) -> WorkingHours:
        """The clinic's usual week.

        Monday to Friday 08:00-12:00 and 13:00-17:00 (closed for lunch), Saturday
        09:00-12:00, Sunday closed.
        """
        weekday_ranges = [(time(8, 0), time(12, 0)), (time(13, 0), time(17, 0))]
        schedule: dict[int, list[Interval]] = {day: list(weekday_ranges) for day in range(5)}
        schedule[5] = [(time(9, 0), time(12, 0))]
        return cls(schedule)

    @classmethod
    def closed(cls) -> WorkingHours:
        """A week in which every day is closed."""
        return cls({})

    def ranges_for_weekday(self, weekday: int) -> tuple[Interval, ...]:
        """The sorted opening ranges of a weekday (empty when closed)."""
        if weekday not in self._days:
            raise CalendarError(f"weekday must be 0..6, got {weekday!r}")
        return self._days[weekday]

    def intervals_on(self, day: date) -> list[TimeSlot]:
        """The opening ranges of ``day`` as concrete time slots."""
        return [
            TimeSlot(combine(day, opens), combine(day, closes))
            for opens, closes in self._days[day.weekday()]
        ]

    def is_open_on(self, day: date) -> bool:
        """True if the clinic has any opening range on that weekday."""
        return bool(self._days[day.weekday()])

    def is_open_at(self, moment: datetime) -> bool:
        """True if ``moment`` lies inside one of the day's opening ranges."""
        return any(slot.contains(moment) for slot in self.intervals_on(moment.date()))

    def covers(self, slot: TimeSlot) -> bool:
        """True if ``slot`` lies entirely within a single opening range."""
        return any(window.covers(slot) for window in self.intervals_on(slot.day))

    def weekly_minutes(self) -> int:
        """Total opening time in a week, in minutes."""
        total = 0
        for ranges in self._days.values():
            for opens, closes in ranges:
                total += (closes.hour * 60 + closes.minute) - (opens.hour * 60 + opens.minute)
        return total

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, WorkingHours):
            return NotImplemented
        return self._days == other._days

    def __repr__(self) -> str:
        parts = []
        for weekday, ranges in self._days.items():
            if ranges:
                text = ",".join(f"{format_time(a)}-{format_time(b)}" for a, b in ranges)
                parts.append(f"{WEEKDAY_NAMES[weekday]} {text}")
        return f"WorkingHours({'; '.join(parts) or 'closed'})"


def _checked_ranges(weekday: int, ranges: Iterable[Interval]) -> tuple[Interval, ...]:
    """Sort a day's ranges and reject empty, inverted or overlapping ones."""
    ordered = sorted(ranges)
    for opens, closes in ordered:
        if closes <= opens:
            raise CalendarError(
                f"{WEEKDAY_NAMES[weekday]}: range {format_time(opens)}-{format_time(closes)}"
                " must close after it opens"
            )
    for (_, previous_close), (next_open, _) in pairwise(ordered):
        if next_open < previous_close:
            raise CalendarError(f"{WEEKDAY_NAMES[weekday]}: opening ranges overlap")
    return tuple(ordered)
