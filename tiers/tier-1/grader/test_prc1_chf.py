"""PRC-1: Swiss francs with 0.05 cash rounding."""

from decimal import Decimal

import pytest

from pricing import (
    PricingError,
    allocate,
    facility_fee,
    format_amount,
    quantize,
    service_fee,
    to_minor_units,
)


def test_chf_rounds_to_five_centimes_half_up():
    cases = {"10.024": "10.00", "10.025": "10.05", "10.074": "10.05", "10.075": "10.10"}
    for raw, rounded in cases.items():
        assert str(quantize(Decimal(raw), "CHF")) == rounded
    assert str(quantize(Decimal("3"), "CHF")) == "3.00"
    assert quantize(Decimal("2.345"), "USD") == Decimal("2.35")


def test_chf_minor_units_formatting_and_allocation():
    assert to_minor_units(Decimal("10.05"), "CHF") == 1005
    assert format_amount(Decimal("1234.5"), "CHF") == "CHF 1,234.50"
    assert allocate(Decimal("1.00"), [1, 1, 1], "CHF") == [
        Decimal("0.35"),
        Decimal("0.35"),
        Decimal("0.30"),
    ]


def test_chf_fees():
    assert facility_fee("CHF") == Decimal("2.00")
    assert service_fee(Decimal("21.10"), "CHF") == Decimal("2.55")
    assert service_fee(Decimal("40.00"), "CHF") == Decimal("4.80")
    assert service_fee(Decimal("10.00"), "CHF") == Decimal("1.50")
    assert service_fee(Decimal("500.00"), "CHF") == Decimal("25.00")


def test_chf_quote_end_to_end(make_service, now):
    service = make_service("CHF", stalls="44.60")
    hold = service.hold_seats("E-500", ["STL-B-1", "STL-B-2"], now)
    quote = service.quote(hold.hold_id, now, discount_code="HALL15")
    assert quote.currency == "CHF"
    assert [line.service_fee for line in quote.lines] == [Decimal("5.35"), Decimal("5.35")]
    assert [line.discount for line in quote.lines] == [Decimal("6.70"), Decimal("6.70")]
    assert quote.total == Decimal("90.50")


def test_chf_price_tables_refuse_odd_centimes(make_service):
    make_service("CHF", stalls="45.05")
    with pytest.raises(PricingError):
        make_service("CHF", stalls="45.02")
