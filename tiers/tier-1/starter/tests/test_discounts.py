from datetime import timedelta
from decimal import Decimal

import pytest

from pricing import DiscountCode, DiscountKind, InvalidDiscountCodeError, discount_amount


def test_codes_match_any_spelling(discounts):
    code = discounts.get("  Spring10 ")
    assert code.code == "SPRING10"
    assert discount_amount(code, Decimal("178.00"), "USD") == Decimal("17.80")
    with pytest.raises(InvalidDiscountCodeError):
        discounts.get("SPRING11")


def test_validity_window(discounts, now):
    discounts.add(
        DiscountCode(
            "EARLY",
            DiscountKind.PERCENT,
            Decimal("20"),
            valid_from=now,
            valid_until=now + timedelta(days=7),
        )
    )
    assert discounts.validate("early", "E-100", now).code == "EARLY"
    with pytest.raises(InvalidDiscountCodeError):
        discounts.validate("EARLY", "E-100", now - timedelta(seconds=1))
    with pytest.raises(InvalidDiscountCodeError):
        discounts.validate("EARLY", "E-100", now + timedelta(days=7))


def test_max_uses_and_fixed_amounts(discounts, now):
    code = discounts.get("FIVEOFF")
    assert discount_amount(code, Decimal("3.20"), "USD") == Decimal("3.20")
    discounts.redeem("FIVEOFF", "E-100", now)
    discounts.redeem("FIVEOFF", "E-100", now)
    with pytest.raises(InvalidDiscountCodeError):
        discounts.redeem("FIVEOFF", "E-100", now)
