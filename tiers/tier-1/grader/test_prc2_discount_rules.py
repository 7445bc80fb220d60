"""PRC-2: capped percentage codes and minimum ticket counts."""

from decimal import Decimal

import pytest

import pricing.errors
from pricing import DiscountCode, DiscountKind, InvalidDiscountCodeError, discount_amount


def _not_applicable():
    # Looked up at run time, so that a missing class fails the tests, not their collection.
    return pricing.errors.DiscountNotApplicableError


def test_percentage_codes_can_be_capped():
    code = DiscountCode("big20", DiscountKind.PERCENT, Decimal("20"), max_discount=Decimal("25.00"))
    assert discount_amount(code, Decimal("300.00"), "USD") == Decimal("25.00")
    assert discount_amount(code, Decimal("125.00"), "USD") == Decimal("25.00")
    assert discount_amount(code, Decimal("100.00"), "USD") == Decimal("20.00")


def test_caps_and_minimums_are_validated():
    plain = DiscountCode("PLAIN", DiscountKind.PERCENT, Decimal("5"))
    assert plain.max_discount is None and plain.min_tickets == 1
    with pytest.raises(ValueError):
        DiscountCode(
            "FLAT", DiscountKind.AMOUNT, Decimal("5"), currency="USD", max_discount=Decimal("3")
        )
    with pytest.raises(ValueError):
        DiscountCode("ZERO", DiscountKind.PERCENT, Decimal("5"), max_discount=Decimal("0"))
    with pytest.raises(ValueError):
        DiscountCode("NONE", DiscountKind.PERCENT, Decimal("5"), min_tickets=0)


def test_minimum_ticket_count():
    code = DiscountCode("GROUP4", DiscountKind.PERCENT, Decimal("10"), min_tickets=4)
    with pytest.raises(_not_applicable()) as info:
        discount_amount(code, Decimal("180.00"), "USD", tickets=3)
    assert isinstance(info.value, InvalidDiscountCodeError)
    assert "4" in str(info.value)
    with pytest.raises(_not_applicable()):
        discount_amount(code, Decimal("180.00"), "USD")
    assert discount_amount(code, Decimal("180.00"), "USD", tickets=4) == Decimal("18.00")
    flat = DiscountCode("PAIR", DiscountKind.AMOUNT, Decimal("7"), currency="USD", min_tickets=2)
    assert discount_amount(flat, Decimal("90.00"), "USD", tickets=2) == Decimal("7.00")


def test_checkout_enforces_the_minimum_and_changes_nothing(make_service, now):
    service = make_service()
    service.discounts.add(DiscountCode("GROUP4", DiscountKind.PERCENT, Decimal("10"), min_tickets=4))
    small = service.hold_seats("E-500", ["STL-C-1", "STL-C-2", "STL-C-3"], now)
    with pytest.raises(_not_applicable()):
        service.quote(small.hold_id, now, discount_code="group4")
    with pytest.raises(_not_applicable()):
        service.checkout(small.hold_id, "max@example.com", now, discount_code="GROUP4")
    assert service.holds.get(small.hold_id) is small
    assert service.discounts.get("GROUP4").uses == 0
    assert len(service.orders) == 0
    big = service.hold_seats("E-500", ["STL-C-5", "STL-C-6", "STL-C-7", "STL-C-8"], now)
    order = service.checkout(big.hold_id, "max@example.com", now, discount_code="GROUP4")
    assert order.discount_total == Decimal("18.00")


def test_capped_discount_is_spread_over_the_quote(make_service, now):
    service = make_service()
    service.discounts.add(
        DiscountCode("BIG20", DiscountKind.PERCENT, Decimal("20"), max_discount=Decimal("25"))
    )
    hold = service.hold_seats("E-500", ["BOX-A-1", "BOX-A-2", "BOX-A-3"], now)
    quote = service.quote(hold.hold_id, now, discount_code="BIG20")
    assert [line.discount for line in quote.lines] == [
        Decimal("8.34"),
        Decimal("8.33"),
        Decimal("8.33"),
    ]
