from decimal import Decimal

import pytest

from pricing import PricingError, UnknownCurrencyError, service_fee, ticket_fees


def test_service_fee_is_twelve_percent_of_face_value():
    assert service_fee(Decimal("89.00"), "USD") == Decimal("10.68")
    assert service_fee(Decimal("49.50"), "USD") == Decimal("5.94")
    assert service_fee(Decimal("19.99"), "EUR") == Decimal("2.40")


def test_service_fee_stays_within_currency_limits():
    assert service_fee(Decimal("10.00"), "USD") == Decimal("1.50")
    assert service_fee(Decimal("300.00"), "USD") == Decimal("25.00")
    assert service_fee(Decimal("5.00"), "GBP") == Decimal("1.25")
    assert service_fee(Decimal("4321"), "JPY") == Decimal("519")
    assert service_fee(Decimal("1000"), "JPY") == Decimal("200")


def test_service_fee_edge_cases():
    assert service_fee(Decimal("0.00"), "USD") == Decimal("0.00")
    assert ticket_fees(Decimal("89.00"), "USD").total == Decimal("12.68")
    with pytest.raises(PricingError):
        service_fee(Decimal("-1.00"), "USD")
    with pytest.raises(UnknownCurrencyError):
        service_fee(Decimal("10.00"), "XXX")
