"""Calendar primitives for the clinic: time slots, working hours and holidays.

All datetimes are naive and read as the clinic's local wall-clock time.
"""

from .clinic import ClinicCalendar
from .errors import CalendarError
from .holidays import HolidayCalendar
from .hours import WorkingHours
from .slots import TimeSlot, split, subtract
from .timeutil import (
    WEEKDAY_NAMES,
    combine,
    daterange,
    format_date,
    format_datetime,
    format_time,
    minutes_between,
    parse_date,
    parse_datetime,
    parse_time,
    weekday_name,
)

__all__ = [
    "WEEKDAY_NAMES",
    "CalendarError",
    "ClinicCalendar",
    "HolidayCalendar",
    "TimeSlot",
    "WorkingHours",
    "combine",
    "daterange",
    "format_date",
    "format_datetime",
    "format_time",
    "minutes_between",
    "parse_date",
    "parse_datetime",
    "parse_time",
    "split",
    "subtract",
    "weekday_name",
]
