"""Stage II: a teammate's commit walks billing periods one after the other and loses the anchor
day after a short month; the visible tests catch it for month-end anchors. A fix at the cause
keeps any anchor day; keeping only month-end anchors does not."""

from __future__ import annotations

from datetime import date


def test_a_day_30_anchor_comes_back_after_february(plans):
    month = plans.Interval.MONTH
    starts = [plans.period_for(date(2025, 1, 30), month, i).start for i in range(4)]
    assert starts == [date(2025, 1, 30), date(2025, 2, 28), date(2025, 3, 30), date(2025, 4, 30)]


def test_a_day_29_anchor_keeps_its_day_in_a_leap_year(plans):
    period = plans.period_for(date(2023, 1, 29), plans.Interval.MONTH, 14)
    assert (period.start, period.end) == (date(2024, 3, 29), date(2024, 4, 29))


def test_the_period_index_follows_the_anchor(plans):
    anchor = date(2025, 1, 30)
    assert plans.period_index_on(anchor, plans.Interval.MONTH, date(2025, 3, 29)) == 1
    assert plans.period_index_on(anchor, plans.Interval.MONTH, date(2025, 3, 30)) == 2


def test_the_teammates_days_left_is_kept(subject, plans):
    """The same commit added the days left in a period: reverting it loses that."""
    periods = subject.module("plans.periods")
    january = plans.BillingPeriod(date(2025, 1, 1), date(2025, 2, 1))
    assert periods.days_left(january, date(2025, 1, 30)) == 2
    assert periods.days_left(january, date(2024, 12, 1)) == 31
    assert periods.days_left(january, date(2025, 2, 1)) == 0
