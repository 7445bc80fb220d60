"""The clinic's calendar: weekly hours combined with holiday closures."""

from __future__ import annotations

from datetime import date, timedelta

from .errors import CalendarError
from .holidays import HolidayCalendar
from .hours import WorkingHours
from .slots import TimeSlot


class ClinicCalendar:
    """Answers "is the clinic open for this slot?" for the booking system."""

    def __init__(
        self, hours: WorkingHours | None = None, holidays: HolidayCalendar | None = None
    ) -> None:
        self.hours = hours if hours is not None else WorkingHours.standard()
        self.holidays = holidays if holidays is not None else HolidayCalendar()

    def is_closed_on(self, day: date) -> bool:
        """True on holidays and on weekdays without opening hours."""
        return self.holidays.is_holiday(day) or not self.hours.is_open_on(day)

    def open_windows(self, day: date) -> list[TimeSlot]:
        """The opening ranges of ``day`` (none on a closed day)."""
        if self.is_closed_on(day):
            return []
        return self.hours.intervals_on(day)

    def is_bookable(self, slot: TimeSlot) -> bool:
        """True if ``slot`` lies within one opening range of an open day."""
        return not self.is_closed_on(slot.day) and self.hours.covers(slot)

    def next_open_day(self, after: date, max_days: int = 366) -> date:
        """The first open day strictly after ``after``."""
        day = after
        for _ in range(max_days):
            day += timedelta(days=1)
            if not self.is_closed_on(day):
                return day
        raise CalendarError(f"no open day within {max_days} days after {after.isoformat()}")
