"""Parsing and formatting helpers for the clinic's wall-clock datetimes.

The clinic runs on local wall-clock time. Every datetime in the system is *naive* and is
read as the clinic's local time; an aware datetime passed to this package is a programming
error and raises :class:`~calendar_core.errors.CalendarError`.

Text formats are fixed and strict:

* dates: ``YYYY-MM-DD`` (``2024-03-05``)
* times: ``HH:MM`` on the 24-hour clock, always two digits each (``09:30``)
* datetimes: ``YYYY-MM-DD HH:MM`` (``2024-03-05 09:30``)
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import date, datetime, time, timedelta

from .errors import CalendarError

DATE_FORMAT = "%Y-%m-%d"
TIME_FORMAT = "%H:%M"
DATETIME_FORMAT = f"{DATE_FORMAT} {TIME_FORMAT}"

#: Three-letter English day abbreviations, Monday first (``date.weekday()`` order).
WEEKDAY_NAMES: tuple[str, ...] = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")

_DATE_RE = re.compile(r"^(\d{4})-(\d{2})-(\d{2})$")
_TIME_RE = re.compile(r"^(\d{2}):(\d{2})$")


def parse_date(text: str) -> date:
    """Parse ``YYYY-MM-DD`` into a :class:`date`.

    >>> parse_date("2024-03-05")
    datetime.date(2024, 3, 5)
    """
    match = _DATE_RE.match(text.strip())
    if match is None:
        raise CalendarError(f"not a date (expected YYYY-MM-DD): {text!r}")
    year, month, day = (int(part) for part in match.groups())
    try:
        return date(year, month, day)
    except ValueError as exc:
        raise CalendarError(f"impossible date: {text!r}") from exc


def parse_time(text: str) -> time:
    """Parse ``HH:MM`` (24-hour clock, two digits each) into a :class:`time`.

    >>> parse_time("13:05")
    datetime.time(13, 5)
    """
    match = _TIME_RE.match(text.strip())
    if match is None:
        raise CalendarError(f"not a time (expected HH:MM): {text!r}")
    hour, minute = int(match.group(1)), int(match.group(2))
    if hour > 23 or minute > 59:
        raise CalendarError(f"impossible time: {text!r}")
    return time(hour, minute)


def parse_datetime(text: str) -> datetime:
    """Parse ``YYYY-MM-DD HH:MM`` into a naive :class:`datetime`."""
    parts = text.strip().split(" ")
    if len(parts) != 2:
        raise CalendarError(f"not a datetime (expected YYYY-MM-DD HH:MM): {text!r}")
    return datetime.combine(parse_date(parts[0]), parse_time(parts[1]))


def format_date(day: date) -> str:
    """Format a date as ``YYYY-MM-DD``."""
    return day.strftime(DATE_FORMAT)


def format_time(moment: time | datetime) -> str:
    """Format a time (or the time of a datetime) as ``HH:MM``."""
    return moment.strftime(TIME_FORMAT)


def format_datetime(moment: datetime) -> str:
    """Format a datetime as ``YYYY-MM-DD HH:MM``."""
    return moment.strftime(DATETIME_FORMAT)


def ensure_naive(moment: datetime) -> datetime:
    """Return ``moment`` unchanged, or raise if it carries a time zone."""
    if moment.tzinfo is not None:
        raise CalendarError(f"timezone-aware datetime not allowed: {moment.isoformat()}")
    return moment


def combine(day: date, at: time) -> datetime:
    """The naive datetime of ``at`` on ``day``."""
    return datetime.combine(day, at)


def minutes_between(start: datetime, end: datetime) -> int:
    """Whole minutes from ``start`` to ``end`` (negative if ``end`` is earlier)."""
    return int((end - start).total_seconds() // 60)


def daterange(start: date, end: date) -> Iterator[date]:
    """Yield every date from ``start`` (inclusive) to ``end`` (exclusive)."""
    current = start
    while current < end:
        yield current
        current += timedelta(days=1)


def weekday_name(day: date) -> str:
    """The three-letter English abbreviation of the day's weekday (``"Tue"``)."""
    return WEEKDAY_NAMES[day.weekday()]
