"""What tests/test_refunds.py covers: the TASK.md refund policy on a real order."""

from datetime import timedelta
from decimal import Decimal


def _order(service, now):
    hold = service.hold_seats("E-100", ["FLR-A-5", "FLR-A-6"], now)
    # face 178.00, discount 17.80, service fees 21.36, facility fees 4.00
    return service.checkout(hold.hold_id, "ada@example.com", now, discount_code="spring10")


def test_a_week_or_more_refunds_tickets_and_facility_fees(booking, service, event, now):
    order = _order(service, now)
    assert order.total == Decimal("185.56")
    ten_days = event.starts_at - timedelta(days=10)
    assert booking.refund_amount(order, event, ten_days) == Decimal("164.20")


def test_two_to_seven_days_refunds_half_and_later_nothing(booking, service, event, now):
    order = _order(service, now)
    start = event.starts_at
    assert booking.refund_amount(order, event, start - timedelta(days=3)) == Decimal("80.10")
    assert booking.refund_amount(order, event, start - timedelta(hours=24)) == Decimal("0.00")


def test_organiser_cancellation_refunds_everything(booking, service, schedule, event, now):
    order = _order(service, now)
    schedule.cancel("E-100")
    an_hour = event.starts_at - timedelta(hours=1)
    assert booking.refund_amount(order, event, an_hour) == Decimal("185.56")
