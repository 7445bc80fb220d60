"""CLIN-5: tiered late-cancellation fees."""

from datetime import datetime, timedelta
from decimal import Decimal

import pytest

from booking import Appointment, CancellationError, CancellationPolicy
from calendar_core import TimeSlot

START = datetime(2024, 3, 6, 10, 0)
NOW = datetime(2024, 3, 1, 9, 0)


def _appointment(kind="consultation"):
    return Appointment("A0042", "P0001", "Dr Patel", TimeSlot.from_duration(START, 20), kind)


def _fee(notice, kind="consultation"):
    return CancellationPolicy().fee_for(_appointment(kind), START - notice)


def test_fee_tiers_and_their_boundaries():
    cases = [
        (timedelta(days=5), "0.00"),
        (timedelta(hours=48), "0.00"),
        (timedelta(hours=47, minutes=59), "15.00"),
        (timedelta(hours=24), "15.00"),
        (timedelta(hours=23, minutes=59), "30.00"),
        (timedelta(hours=2), "30.00"),
        (timedelta(hours=1, minutes=59), "50.00"),
        (timedelta(minutes=1), "50.00"),
    ]
    for notice, expected in cases:
        fee = _fee(notice)
        assert isinstance(fee, Decimal)
        assert str(fee) == expected, notice


def test_follow_ups_are_never_charged_but_still_cannot_be_cancelled_late():
    for notice in (timedelta(hours=30), timedelta(hours=5), timedelta(minutes=30)):
        assert str(_fee(notice, kind="follow-up")) == "0.00"
    assert str(_fee(timedelta(hours=30), kind="vaccination")) == "15.00"
    with pytest.raises(CancellationError):
        _fee(timedelta(0), kind="follow-up")
    with pytest.raises(CancellationError):
        _fee(timedelta(minutes=-5))


def test_scheduler_records_fees_and_sums_outstanding(scheduler):
    assert scheduler.outstanding_fees("P0001") == Decimal("0.00")
    a = scheduler.book("P0001", "Dr Patel", datetime(2024, 3, 4, 9, 0), now=NOW)
    b = scheduler.book("P0001", "Dr Osei", datetime(2024, 3, 5, 9, 0), now=NOW)
    c = scheduler.book("P0001", "Dr Patel", datetime(2024, 3, 6, 9, 0), now=NOW)
    scheduler.cancel(a.appointment_id, at=datetime(2024, 3, 4, 8, 0))
    scheduler.cancel(b.appointment_id, at=datetime(2024, 3, 4, 8, 0))
    assert str(scheduler.get(a.appointment_id).cancellation_fee) == "50.00"
    assert str(scheduler.get(b.appointment_id).cancellation_fee) == "15.00"
    assert scheduler.get(c.appointment_id).is_active
    total = scheduler.outstanding_fees("P0001")
    assert isinstance(total, Decimal) and str(total) == "65.00"
    assert str(scheduler.outstanding_fees("P0002")) == "0.00"
