from decimal import Decimal

import pytest

from money import (
    BillingError,
    CurrencyMismatchError,
    InvalidAmountError,
    Money,
    UnknownCurrencyError,
    get_currency,
    sum_money,
)


def test_amounts_are_kept_to_minor_units():
    m = Money.of("12.5", "USD")
    assert m.amount == Decimal("12.50")
    assert str(m) == "12.50 USD"
    assert Money.of(3, "EUR").amount == Decimal("3.00")


def test_too_many_decimal_places_are_refused_not_rounded():
    with pytest.raises(InvalidAmountError):
        Money.of("1.005", "EUR")


def test_floats_and_garbage_are_refused():
    with pytest.raises(InvalidAmountError):
        Money.of(0.1, "EUR")
    with pytest.raises(InvalidAmountError):
        Money.of("ten", "EUR")
    with pytest.raises(InvalidAmountError):
        Money.of("NaN", "EUR")


def test_unknown_currency():
    with pytest.raises(UnknownCurrencyError) as info:
        Money.of("1.00", "XXX")
    assert info.value.code == "unknown_currency"
    assert isinstance(info.value, BillingError)
    assert get_currency("GBP").minor_units == 2


def test_arithmetic_and_currency_mismatch():
    a = Money.of("10.00", "EUR")
    b = Money.of("2.55", "EUR")
    assert a + b == Money.of("12.55", "EUR")
    assert a - b == Money.of("7.45", "EUR")
    assert -b == Money.of("-2.55", "EUR")
    assert b * 3 == Money.of("7.65", "EUR")
    with pytest.raises(CurrencyMismatchError):
        a + Money.of("1.00", "USD")


def test_multiply_rounds_half_even_unless_told_otherwise():
    m = Money.of("0.05", "USD")
    assert m.multiply("0.5") == Money.of("0.02", "USD")
    assert m.multiply("0.5", mode="half_up") == Money.of("0.03", "USD")
    with pytest.raises(InvalidAmountError):
        m.multiply("0.5", mode="bankers")


def test_fraction_for_proration():
    assert Money.of("30.10", "EUR").fraction(7, 28) == Money.of("7.52", "EUR")
    assert Money.of("30.00", "EUR").fraction(10, 30) == Money.of("10.00", "EUR")
    with pytest.raises(InvalidAmountError):
        Money.of("30.00", "EUR").fraction(1, 0)


def test_format_for_customers():
    assert Money.of("1234.5", "USD").format() == "$1,234.50"
    assert Money.of("-3", "EUR").format() == "-\u20ac3.00"
    assert Money.zero("GBP").format() == "\u00a30.00"


def test_negative_zero_is_plain_zero():
    assert str(Money.of("-0.00", "EUR")) == "0.00 EUR"
    assert (Money.of("1.00", "EUR") - Money.of("1.00", "EUR")).format() == "\u20ac0.00"


def test_sum_and_comparisons():
    items = [Money.of("1.10", "EUR"), Money.of("2.20", "EUR")]
    assert sum_money(items, "EUR") == Money.of("3.30", "EUR")
    assert sum_money([], "EUR").is_zero()
    assert Money.of("1.00", "EUR") < Money.of("1.01", "EUR")
    assert Money.of("-1.00", "EUR").is_negative()
