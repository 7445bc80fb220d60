"""Billing periods.

A period is a half-open date range ``[start, end)``: ``end`` is the first day of
the next period.  Periods are anchored on the day of the month the subscription
was first billed; in shorter months the anchor day is clamped to the month's last
day and restored afterwards (anchor Jan 31: Jan 31, Feb 28, Mar 31, Apr 30, ...).
"""

from __future__ import annotations

import calendar
from dataclasses import dataclass
from datetime import date, timedelta

from plans.errors import InvalidPeriodError
from plans.models import Interval


@dataclass(frozen=True)
class BillingPeriod:
    """``[start, end)``; ``days`` is the number of days billed."""

    start: date
    end: date

    def __post_init__(self) -> None:
        if self.end <= self.start:
            raise InvalidPeriodError(f"a period must end after it starts ({self.start}, {self.end})")

    @property
    def days(self) -> int:
        return (self.end - self.start).days

    @property
    def last_day(self) -> date:
        return self.end - timedelta(days=1)

    def contains(self, day: date) -> bool:
        return self.start <= day < self.end

    def __str__(self) -> str:
        return f"{self.start.isoformat()} to {self.last_day.isoformat()}"


def add_months(day: date, months: int, anchor_day: int | None = None) -> date:
    """``day`` moved by ``months`` calendar months, keeping ``anchor_day`` where it exists."""
    anchor = anchor_day or day.day
    total = day.year * 12 + (day.month - 1) + months
    year, month0 = divmod(total, 12)
    month = month0 + 1
    return date(year, month, min(anchor, calendar.monthrange(year, month)[1]))


def period_for(anchor: date, interval: Interval, index: int) -> BillingPeriod:
    """The ``index``-th billing period (0 = the first) of a schedule anchored on ``anchor``."""
    if isinstance(index, bool) or not isinstance(index, int) or index < 0:
        raise InvalidPeriodError(f"period index must be a whole number >= 0, got {index!r}")
    step = Interval(interval).months
    start = add_months(anchor, index * step, anchor.day)
    end = add_months(anchor, (index + 1) * step, anchor.day)
    return BillingPeriod(start, end)


def period_index_on(anchor: date, interval: Interval, day: date) -> int:
    """The index of the period that contains ``day``."""
    if day < anchor:
        raise InvalidPeriodError(f"{day} is before the first billing period ({anchor})")
    step = Interval(interval).months
    months = (day.year - anchor.year) * 12 + (day.month - anchor.month)
    index = max(0, months // step)
    while index > 0 and period_for(anchor, interval, index).start > day:
        index -= 1
    while period_for(anchor, interval, index).end <= day:
        index += 1
    return index
