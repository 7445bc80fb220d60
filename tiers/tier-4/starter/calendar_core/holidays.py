"""Days on which the clinic is closed regardless of its weekly hours."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date

from .errors import CalendarError
from .timeutil import format_date


class HolidayCalendar:
    """A set of named one-off closure days (bank holidays, training days).

    >>> cal = HolidayCalendar()
    >>> cal.add(date(2024, 5, 6), "Early May bank holiday")
    >>> cal.is_holiday(date(2024, 5, 6))
    True
    """

    def __init__(self, holidays: Mapping[date, str] | None = None) -> None:
        self._days: dict[date, str] = {}
        for day, name in (holidays or {}).items():
            self.add(day, name)

    def add(self, day: date, name: str) -> None:
        """Close the clinic on ``day``.

        Re-adding a day under the same name is a no-op; under a different name it is an
        error, so two closures never silently replace each other.
        """
        name = name.strip()
        if not name:
            raise CalendarError("a holiday needs a name")
        existing = self._days.get(day)
        if existing is not None and existing != name:
            raise CalendarError(
                f"{format_date(day)} is already a holiday ({existing!r}), cannot add {name!r}"
            )
        self._days[day] = name

    def remove(self, day: date) -> None:
        """Reopen the clinic on ``day``; unknown days raise :class:`CalendarError`."""
        if day not in self._days:
            raise CalendarError(f"{format_date(day)} is not a holiday")
        del self._days[day]

    def is_holiday(self, day: date) -> bool:
        """True if the clinic is closed for a holiday on ``day``."""
        return self.name_of(day) is not None

    def name_of(self, day: date) -> str | None:
        """The holiday's name, or ``None`` if ``day`` is not a holiday."""
        return self._days.get(day)

    def between(self, start: date, end: date) -> list[tuple[date, str]]:
        """Holidays from ``start`` to ``end``, both inclusive, in date order."""
        if end < start:
            raise CalendarError("end of range lies before its start")
        return sorted((day, name) for day, name in self._days.items() if start <= day <= end)

    def __contains__(self, day: object) -> bool:
        return isinstance(day, date) and self.is_holiday(day)

    def __len__(self) -> int:
        return len(self._days)
