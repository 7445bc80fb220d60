"""What tests/test_service.py covers: checkout, cancellation, on-sale and free-seat checks."""

from datetime import timedelta
from decimal import Decimal


def test_checkout_sells_seats_and_charges(events, service, now):
    hold = service.hold_best_available("E-100", "BAL", 2, now)
    assert hold.seats == ("BAL-A-4", "BAL-A-5")
    order = service.checkout(hold.hold_id, " Ada@Example.com", now, discount_code="FIVEOFF")
    assert order.order_id == "O0001"
    assert order.customer_email == "ada@example.com"
    assert order.total == Decimal("99.00") - Decimal("5.00") + Decimal("11.88") + Decimal("4.00")
    assert service.net_paid("O0001") == order.total
    assert service.seatmap("E-100").status("BAL-A-4") == events.SeatStatus.SOLD


def test_cancel_order_refunds_and_releases_seats(booking, service, event, now):
    hold = service.hold_seats("E-100", ["FLR-B-1"], now)
    order = service.checkout(hold.hold_id, "bo@example.com", now)
    refund = service.cancel_order(order.order_id, event.starts_at - timedelta(days=8))
    assert refund == Decimal("91.00")
    assert order.status == booking.OrderStatus.CANCELLED
    assert service.net_paid(order.order_id) == Decimal("10.68")
    assert service.seatmap("E-100").is_available("FLR-B-1") is True


def test_seats_must_be_on_sale_and_free(subject, service, now):
    with subject.raises("booking.EventNotOnSaleError"):
        service.hold_seats("E-100", ["FLR-A-1"], now - timedelta(hours=3))
    service.hold_seats("E-100", ["FLR-A-1"], now)
    with subject.raises("booking.SeatUnavailableError"):
        service.hold_seats("E-100", ["FLR-A-1", "FLR-A-2"], now)
