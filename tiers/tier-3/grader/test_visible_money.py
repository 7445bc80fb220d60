"""Baseline, judged through the bridge: what the repository's tests/test_money.py covers."""

from decimal import Decimal


def test_amounts_are_kept_to_minor_units(subject, money, cash):
    m = money.Money.of("12.5", "USD")
    assert m.amount == Decimal("12.50")
    assert subject.str(m) == "12.50 USD"
    assert cash(m) == "12.50 USD"
    assert cash(money.Money.of(3, "EUR")) == "3.00 EUR"


def test_too_many_decimal_places_are_refused_not_rounded(subject, money):
    with subject.raises("money.InvalidAmountError"):
        money.Money.of("1.005", "EUR")


def test_floats_and_garbage_are_refused(subject, money):
    with subject.raises("money.InvalidAmountError"):
        money.Money.of(0.1, "EUR")
    with subject.raises("money.InvalidAmountError"):
        money.Money.of("ten", "EUR")
    with subject.raises("money.InvalidAmountError"):
        money.Money.of("NaN", "EUR")


def test_unknown_currency(subject, money):
    with subject.raises("money.UnknownCurrencyError") as info:
        money.Money.of("1.00", "XXX")
    assert info.value.code == "unknown_currency"
    assert subject.isinstance(info.value.ref, "money.BillingError")
    assert money.get_currency("GBP").minor_units == 2


def test_arithmetic_and_currency_mismatch(subject, money, eur, cash):
    op = subject.module("operator")  # Money's operators, applied in the subject
    a = eur("10.00")
    b = eur("2.55")
    assert cash(op.add(a, b)) == "12.55 EUR"
    assert cash(op.sub(a, b)) == "7.45 EUR"
    assert cash(op.neg(b)) == "-2.55 EUR"
    assert cash(op.mul(b, 3)) == "7.65 EUR"
    with subject.raises("money.CurrencyMismatchError"):
        op.add(a, money.Money.of("1.00", "USD"))


def test_multiply_rounds_half_even_unless_told_otherwise(subject, money, cash):
    m = money.Money.of("0.05", "USD")
    assert cash(m.multiply("0.5")) == "0.02 USD"
    assert cash(m.multiply("0.5", mode="half_up")) == "0.03 USD"
    with subject.raises("money.InvalidAmountError"):
        m.multiply("0.5", mode="bankers")


def test_fraction_for_proration(subject, eur, cash):
    assert cash(eur("30.10").fraction(7, 28)) == "7.52 EUR"
    assert cash(eur("30.00").fraction(10, 30)) == "10.00 EUR"
    with subject.raises("money.InvalidAmountError"):
        eur("30.00").fraction(1, 0)


def test_format_for_customers(money):
    assert money.Money.of("1234.5", "USD").format() == "$1,234.50"
    assert money.Money.of("-3", "EUR").format() == "-\u20ac3.00"
    assert money.Money.zero("GBP").format() == "\u00a30.00"


def test_negative_zero_is_plain_zero(subject, eur, cash):
    assert subject.str(eur("-0.00")) == "0.00 EUR"
    assert cash(eur("-0.00")) == "0.00 EUR"
    op = subject.module("operator")
    assert op.sub(eur("1.00"), eur("1.00")).format() == "\u20ac0.00"


def test_sum_and_comparisons(subject, money, eur, cash):
    op = subject.module("operator")
    items = [eur("1.10"), eur("2.20")]
    assert cash(money.sum_money(items, "EUR")) == "3.30 EUR"
    assert money.sum_money([], "EUR").is_zero() is True
    assert op.lt(eur("1.00"), eur("1.01")) is True
    assert eur("-1.00").is_negative() is True
