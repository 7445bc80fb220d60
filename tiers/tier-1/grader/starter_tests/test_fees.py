"""What tests/test_fees.py covers: the TASK.md service fee and its limits."""

from decimal import Decimal


def test_service_fee_is_twelve_percent_of_face_value(pricing):
    assert pricing.service_fee(Decimal("89.00"), "USD") == Decimal("10.68")
    assert pricing.service_fee(Decimal("49.50"), "USD") == Decimal("5.94")
    assert pricing.service_fee(Decimal("19.99"), "EUR") == Decimal("2.40")


def test_service_fee_stays_within_currency_limits(pricing):
    assert pricing.service_fee(Decimal("10.00"), "USD") == Decimal("1.50")
    assert pricing.service_fee(Decimal("300.00"), "USD") == Decimal("25.00")
    assert pricing.service_fee(Decimal("5.00"), "GBP") == Decimal("1.25")
    assert pricing.service_fee(Decimal("4321"), "JPY") == Decimal("519")
    assert pricing.service_fee(Decimal("1000"), "JPY") == Decimal("200")


def test_service_fee_edge_cases(subject, pricing):
    assert pricing.service_fee(Decimal("0.00"), "USD") == Decimal("0.00")
    assert pricing.ticket_fees(Decimal("89.00"), "USD").total == Decimal("12.68")
    with subject.raises("pricing.PricingError"):
        pricing.service_fee(Decimal("-1.00"), "USD")
    with subject.raises("pricing.UnknownCurrencyError"):
        pricing.service_fee(Decimal("10.00"), "XXX")
