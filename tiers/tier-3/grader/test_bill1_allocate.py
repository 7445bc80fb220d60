"""BILL-1: Money gets a method (its name is drawn) that splits an amount without losing a minor
unit."""

from decimal import Decimal

import pytest


@pytest.fixture
def split(money, params):
    """split(amount, currency, ratios) -> the parts' amounts as strings."""
    name = params["allocate_fn"]

    def run(amount, currency, ratios):
        parts = getattr(money.Money.of(amount, currency), name)(ratios)
        return [str(part.amount) for part in parts]

    return run


def test_allocate_examples_from_the_requirement(split):
    assert split("100.00", "USD", [1, 1, 1]) == ["33.34", "33.33", "33.33"]
    assert split("0.05", "USD", [3, 7]) == ["0.02", "0.03"]
    assert split("10.00", "USD", [1, 2, 3]) == ["1.67", "3.33", "5.00"]


def test_leftover_cents_go_to_largest_remainders_then_earlier_parts(money, params, split):
    assert split("1.00", "EUR", [1, 1, 1, 1, 1, 1]) == ["0.17", "0.17", "0.17", "0.17", "0.16", "0.16"]
    assert split("0.99", "EUR", [Decimal("0.2"), Decimal("0.8")]) == ["0.20", "0.79"]
    assert split("0.10", "EUR", [1, 2, 2, 1]) == ["0.02", "0.03", "0.03", "0.02"]
    assert split("5.00", "EUR", [0, 1, 1]) == ["0.00", "2.50", "2.50"]
    parts = getattr(money.Money.of("5.00", "EUR"), params["allocate_fn"])([0, 1, 1])
    assert [part.currency.code for part in parts] == ["EUR", "EUR", "EUR"]


def test_parts_always_sum_to_the_original_and_negative_amounts_keep_their_sign(split):
    assert split("-100.00", "USD", [1, 1, 1]) == ["-33.34", "-33.33", "-33.33"]
    parts = split("1234.57", "GBP", [3, 5, 7, 11])
    assert sum((Decimal(p) for p in parts), Decimal(0)) == Decimal("1234.57")
    assert all(Decimal(p) >= 0 for p in parts)


@pytest.mark.parametrize("ratios", [[], [0, 0], [3, -1]], ids=["empty", "all-zero", "negative"])
def test_invalid_ratios(subject, money, params, ratios):
    amount = money.Money.of("10.00", "EUR")
    with subject.raises("money.InvalidAmountError"):
        getattr(amount, params["allocate_fn"])(ratios)


def test_an_amount_splits_into_at_most_the_allowed_number_of_parts(subject, money, params, split):
    most = params["allocate_max_parts"]
    parts = split("1.00", "EUR", [1] * most)
    assert len(parts) == most
    assert sum((Decimal(p) for p in parts), Decimal(0)) == Decimal("1.00")
    with subject.raises("money.InvalidAmountError"):
        getattr(money.Money.of("1.00", "EUR"), params["allocate_fn"])([1] * (most + 1))
