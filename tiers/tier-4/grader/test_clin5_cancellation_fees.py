"""CLIN-5: tiered late-cancellation fees.

Seeded: the notice from which cancelling is free (`fee_free_h`), the notice below which the
highest fee applies (`fee_short_h`), and the three fees.
"""

from datetime import datetime, timedelta
from decimal import Decimal

import pytest

START = datetime(2024, 3, 6, 10, 0)
NOW = datetime(2024, 3, 1, 9, 0)
MINUTE = timedelta(minutes=1)


@pytest.fixture
def fee(calendar_core, booking):
    """fee(notice, kind): the default policy's fee for cancelling with `notice`."""

    def compute(notice, kind="consultation"):
        slot = calendar_core.TimeSlot.from_duration(START, 20)
        appointment = booking.Appointment("A0042", "P0001", "Dr Patel", slot, kind)
        return booking.CancellationPolicy().fee_for(appointment, START - notice)

    return compute


def test_fee_tiers_and_their_boundaries(fee, params):
    free, short = timedelta(hours=params["fee_free_h"]), timedelta(hours=params["fee_short_h"])
    day = timedelta(hours=24)
    cases = [
        (timedelta(days=5), "0.00"),
        (free, "0.00"),
        (free - MINUTE, params["fee_mid"]),
        (day, params["fee_mid"]),
        (day - MINUTE, params["fee_late"]),
        (short, params["fee_late"]),
        (short - MINUTE, params["fee_last"]),
        (MINUTE, params["fee_last"]),
    ]
    for notice, expected in cases:
        charged = fee(notice)
        assert type(charged) is Decimal, notice
        assert str(charged) == expected, notice


def test_follow_ups_are_never_charged_but_still_cannot_be_cancelled_late(subject, fee, params):
    for notice in (timedelta(hours=30), timedelta(hours=5), timedelta(minutes=30)):
        assert str(fee(notice, kind="follow-up")) == "0.00"
    assert str(fee(timedelta(hours=30), kind="vaccination")) == params["fee_mid"]
    assert str(fee(timedelta(hours=5), kind="blood-test")) == params["fee_late"]
    with subject.raises("booking.CancellationError"):
        fee(timedelta(0), kind="follow-up")
    with subject.raises("booking.CancellationError"):
        fee(timedelta(minutes=-5))


def test_scheduler_records_fees_and_sums_outstanding(scheduler, params):
    assert scheduler.outstanding_fees("P0001") == Decimal("0.00")
    a = scheduler.book("P0001", "Dr Patel", datetime(2024, 3, 4, 9, 0), now=NOW)
    b = scheduler.book("P0001", "Dr Osei", datetime(2024, 3, 5, 9, 0), now=NOW)
    c = scheduler.book("P0001", "Dr Patel", datetime(2024, 3, 6, 9, 0), now=NOW)
    scheduler.cancel(a.appointment_id, at=datetime(2024, 3, 4, 8, 0))
    scheduler.cancel(b.appointment_id, at=datetime(2024, 3, 4, 8, 0))
    assert str(scheduler.get(a.appointment_id).cancellation_fee) == params["fee_last"]
    assert str(scheduler.get(b.appointment_id).cancellation_fee) == params["fee_mid"]
    assert scheduler.get(c.appointment_id).is_active is True
    total = scheduler.outstanding_fees("P0001")
    assert type(total) is Decimal
    assert str(total) == str(Decimal(params["fee_last"]) + Decimal(params["fee_mid"]))
    assert str(scheduler.outstanding_fees("P0002")) == "0.00"
