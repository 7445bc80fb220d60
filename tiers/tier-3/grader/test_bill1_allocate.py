"""BILL-1: Money.allocate splits an amount without losing a minor unit."""

from decimal import Decimal

import pytest

from money import InvalidAmountError, Money


def amounts(parts):
    return [str(p.amount) for p in parts]


def test_allocate_examples_from_the_requirement():
    assert amounts(Money.of("100.00", "USD").allocate([1, 1, 1])) == ["33.34", "33.33", "33.33"]
    assert amounts(Money.of("0.05", "USD").allocate([3, 7])) == ["0.02", "0.03"]
    assert amounts(Money.of("10.00", "USD").allocate([1, 2, 3])) == ["1.67", "3.33", "5.00"]


def test_leftover_cents_go_to_largest_remainders_then_earlier_parts():
    parts = Money.of("1.00", "EUR").allocate([1, 1, 1, 1, 1, 1])
    assert amounts(parts) == ["0.17", "0.17", "0.17", "0.17", "0.16", "0.16"]
    parts = Money.of("0.99", "EUR").allocate([Decimal("0.2"), Decimal("0.8")])
    assert amounts(parts) == ["0.20", "0.79"]
    parts = Money.of("5.00", "EUR").allocate([0, 1, 1])
    assert amounts(parts) == ["0.00", "2.50", "2.50"]
    assert all(p.currency.code == "EUR" for p in parts)


def test_parts_always_sum_to_the_original_and_negative_amounts_keep_their_sign():
    parts = Money.of("-100.00", "USD").allocate([1, 1, 1])
    assert amounts(parts) == ["-33.34", "-33.33", "-33.33"]
    total = Money.of("1234.57", "GBP")
    parts = total.allocate([3, 5, 7, 11])
    assert sum((p.amount for p in parts), Decimal(0)) == total.amount


@pytest.mark.parametrize("ratios", [[], [0, 0], [1, -1]], ids=["empty", "all-zero", "negative"])
def test_invalid_ratios(ratios):
    with pytest.raises(InvalidAmountError):
        Money.of("10.00", "EUR").allocate(ratios)
