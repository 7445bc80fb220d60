"""What tests/test_discounts.py covers: code spellings, validity windows, uses, fixed amounts."""

from datetime import timedelta
from decimal import Decimal


def test_codes_match_any_spelling(subject, pricing, discounts):
    code = discounts.get("  Spring10 ")
    assert code.code == "SPRING10"
    assert pricing.discount_amount(code, Decimal("178.00"), "USD") == Decimal("17.80")
    with subject.raises("pricing.InvalidDiscountCodeError"):
        discounts.get("SPRING11")


def test_validity_window(subject, pricing, discounts, now):
    discounts.add(
        pricing.DiscountCode(
            "EARLY",
            pricing.DiscountKind.PERCENT,
            Decimal("20"),
            valid_from=now,
            valid_until=now + timedelta(days=7),
        )
    )
    assert discounts.validate("early", "E-100", now).code == "EARLY"
    with subject.raises("pricing.InvalidDiscountCodeError"):
        discounts.validate("EARLY", "E-100", now - timedelta(seconds=1))
    with subject.raises("pricing.InvalidDiscountCodeError"):
        discounts.validate("EARLY", "E-100", now + timedelta(days=7))


def test_max_uses_and_fixed_amounts(subject, pricing, discounts, now):
    code = discounts.get("FIVEOFF")
    assert pricing.discount_amount(code, Decimal("3.20"), "USD") == Decimal("3.20")
    discounts.redeem("FIVEOFF", "E-100", now)
    discounts.redeem("FIVEOFF", "E-100", now)
    with subject.raises("pricing.InvalidDiscountCodeError"):
        discounts.redeem("FIVEOFF", "E-100", now)
