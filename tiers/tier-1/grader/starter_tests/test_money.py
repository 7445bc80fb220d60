"""What tests/test_money.py covers: rounding, minor units, allocation, formatting."""

from decimal import Decimal


def test_quantize_rounds_half_up_per_currency(pricing):
    assert pricing.quantize(Decimal("2.345"), "USD") == Decimal("2.35")
    assert pricing.quantize(Decimal("2.344"), "USD") == Decimal("2.34")
    assert pricing.quantize(Decimal("1234.5"), "JPY") == Decimal("1235")
    assert pricing.to_minor_units(Decimal("12.5"), "EUR") == 1250


def test_allocate_splits_exactly(pricing):
    assert pricing.allocate(Decimal("10.00"), [1, 1, 1], "USD") == [
        Decimal("3.34"),
        Decimal("3.33"),
        Decimal("3.33"),
    ]
    parts = pricing.allocate(Decimal("13.85"), [Decimal("89.00"), Decimal("49.50")], "USD")
    assert sum(parts) == Decimal("13.85")
    assert parts == [Decimal("8.90"), Decimal("4.95")]


def test_format_amount(pricing):
    assert pricing.format_amount(Decimal("1234.5"), "USD") == "USD 1,234.50"
    assert pricing.format_amount(12000, "JPY") == "JPY 12,000"
