"""Hidden baseline: the TASK.md work (service fees, refunds) and the code built on it."""

from datetime import datetime, timedelta
from decimal import Decimal


def _buy(service, seats, now, code=None, event_id="E-500", email="kim@example.com"):
    hold = service.hold_seats(event_id, seats, now)
    return service.checkout(hold.hold_id, email, now, discount_code=code)


def test_service_fee_rounds_half_up_before_the_limits(pricing):
    fee = pricing.service_fee
    assert fee(Decimal("13.00"), "USD") == Decimal("1.56")
    assert fee(Decimal("20.875"), "EUR") == Decimal("2.51")
    assert str(fee(Decimal("12.50"), "USD")) == "1.50"
    assert fee(Decimal("1675"), "JPY") == Decimal("201")
    assert fee(Decimal("1662"), "JPY") == Decimal("200")


def test_service_fee_maximum_per_currency(pricing):
    fee = pricing.service_fee
    assert fee(Decimal("200.00"), "GBP") == Decimal("20.00")
    assert fee(Decimal("200.00"), "USD") == Decimal("24.00")
    assert fee(Decimal("208.30"), "USD") == Decimal("25.00")
    assert fee(Decimal("250.00"), "EUR") == Decimal("25.00")
    assert fee(Decimal("30000"), "JPY") == Decimal("3000")


def test_complimentary_tickets_and_currency_checks(subject, pricing):
    assert str(pricing.service_fee(Decimal("0"), "JPY")) == "0"
    assert str(pricing.service_fee(Decimal("0.00"), "GBP")) == "0.00"
    with subject.raises("pricing.UnknownCurrencyError"):
        pricing.service_fee(Decimal("0"), "CAD")
    with subject.raises("pricing.PricingError"):
        pricing.service_fee(Decimal("-0.01"), "USD")
    assert pricing.ticket_fees(Decimal("0"), "USD").total == Decimal("0.00")


def test_service_fee_accepts_int_and_str(subject, pricing):
    assert str(pricing.service_fee(100, "USD")) == "12.00"
    assert pricing.service_fee("45", "USD") == Decimal("5.40")
    with subject.raises("builtins.TypeError"):
        pricing.service_fee(45.0, "USD")


def test_quote_totals_in_pounds(make_service, now):
    service = make_service("GBP", stalls="30.00", boxes="95.00")
    hold = service.hold_seats("E-500", ["STL-B-1", "BOX-A-2"], now)
    quote = service.quote(hold.hold_id, now, discount_code="hall15")
    assert [line.service_fee for line in quote.lines] == [Decimal("3.60"), Decimal("11.40")]
    assert [line.facility_fee for line in quote.lines] == [Decimal("1.50"), Decimal("1.50")]
    assert [line.discount for line in quote.lines] == [Decimal("4.50"), Decimal("14.25")]
    assert quote.total == Decimal("124.25")


def test_refund_notice_boundaries_are_inclusive(booking, make_service, gala, now):
    service = make_service()
    order = _buy(service, ["STL-C-1", "STL-C-2"], now)
    assert order.total == Decimal("104.80")
    start = gala.starts_at
    second = timedelta(seconds=1)
    refund = booking.refund_amount
    assert refund(order, gala, start - timedelta(days=7)) == Decimal("94.00")
    assert refund(order, gala, start - timedelta(days=7) + second) == Decimal("45.00")
    assert refund(order, gala, start - timedelta(hours=48)) == Decimal("45.00")
    assert refund(order, gala, start - timedelta(hours=48) + second) == Decimal("0.00")


def test_partial_refund_is_rounded_once_on_the_order(booking, make_service, gala, now):
    service = make_service(stalls="24.75")
    plain = _buy(service, ["STL-C-1", "STL-C-2", "STL-C-3"], now)
    coded = _buy(service, ["STL-C-7", "STL-C-8", "STL-C-9"], now, "HALL15", email="lou@example.com")
    three_days = gala.starts_at - timedelta(days=3)
    assert booking.refund_amount(plain, gala, three_days) == Decimal("37.13")
    assert booking.refund_amount(coded, gala, three_days) == Decimal("31.56")


def test_refunds_in_yen(booking, make_service, gala, now):
    service = make_service("JPY", stalls="4800", boxes="15000")
    order = _buy(service, ["STL-B-5"], now)
    assert order.total == Decimal("5676")
    start = gala.starts_at
    assert booking.refund_amount(order, gala, start - timedelta(days=9)) == Decimal("5100")
    assert booking.refund_amount(order, gala, start - timedelta(days=3)) == Decimal("2400")
    late = booking.refund_amount(order, gala, start + timedelta(hours=1))
    assert late == 0 and str(late) == "0"


def test_organiser_cancellation_refunds_fees_even_after_the_start(
    booking, make_service, schedule, gala, now
):
    service = make_service()
    order = _buy(service, ["BOX-A-1"], now, code="HALL15")
    assert order.total == Decimal("118.40")
    schedule.cancel("E-500")
    after = gala.starts_at + timedelta(days=1)
    assert booking.refund_amount(order, gala, after) == Decimal("118.40")


def test_refund_argument_checks(subject, booking, make_service, gala, encore, now):
    service = make_service()
    order = _buy(service, ["STL-B-2"], now)
    with subject.raises("builtins.ValueError"):
        booking.refund_amount(order, gala, datetime(2031, 1, 20, 12, 0))
    with subject.raises("builtins.ValueError"):
        booking.refund_amount(order, encore, now)
    service.cancel_order(order.order_id, now)
    with subject.raises("booking.OrderStateError"):
        booking.refund_amount(order, gala, now)


def test_refund_amount_leaves_the_order_alone(booking, make_service, gala, now):
    service = make_service()
    order = _buy(service, ["STL-B-3", "STL-B-4"], now, code="TENOFF")
    first = booking.refund_amount(order, gala, now)
    assert first == Decimal("84.00")
    assert booking.refund_amount(order, gala, now) == first
    assert order.status == booking.OrderStatus.CONFIRMED
    assert order.refunded == 0
    assert service.net_paid(order.order_id) == order.total


def test_cancel_order_books_the_refund(subject, make_service, gala, now):
    service = make_service()
    first = _buy(service, ["STL-C-5", "STL-C-6"], now)
    second = _buy(service, ["BOX-A-3"], now, email="lee@example.com")
    refund = service.cancel_order(first.order_id, gala.starts_at - timedelta(days=3))
    assert refund == Decimal("45.00")
    assert first.refunded == refund
    assert service.net_paid(first.order_id) == first.total - refund
    assert service.takings() == {"USD": first.total - refund + second.total}
    assert service.seatmap("E-500").is_available("STL-C-6") is True
    with subject.raises("booking.OrderStateError"):
        service.cancel_order(first.order_id, now)
