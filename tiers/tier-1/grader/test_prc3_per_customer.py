"""PRC-3: discount codes limited per customer (the new exception's name is seeded)."""

from decimal import Decimal


def _limit_error(params):
    return f"pricing.errors.{params['per_customer_error']}"


def _book_with(pricing, **fields):
    book = pricing.DiscountBook()
    kind = pricing.DiscountKind.PERCENT
    book.add(pricing.DiscountCode("FANS10", kind, Decimal("10"), **fields))
    return book


def test_a_customer_uses_a_code_at_most_the_limit(subject, pricing, now, params):
    book = _book_with(pricing, max_uses_per_customer=2)
    book.redeem("fans10", "E-500", now, customer="sam@example.com")
    book.redeem("FANS10", "E-500", now, customer="sam@example.com")
    assert book.uses_by("FANS10", "sam@example.com") == 2
    with subject.raises(_limit_error(params)) as info:
        book.redeem("FANS10", "E-500", now, customer="sam@example.com")
    assert subject.isinstance(info.value.ref, "pricing.InvalidDiscountCodeError")
    assert info.value.message == params["per_customer_message"].format(code="FANS10", limit=2)
    with subject.raises(_limit_error(params)):
        book.validate("FANS10", "E-500", now, customer="sam@example.com")
    assert book.get("FANS10").uses == 2
    assert book.uses_by(" fans10 ", "sam@example.com") == 2
    # Another customer has a share of their own; without a customer nothing is checked.
    book.redeem("FANS10", "E-500", now, customer="kim@example.com")
    book.redeem("FANS10", "E-500", now)
    assert book.get("FANS10").uses == 4
    assert book.uses_by("FANS10", "kim@example.com") == 1
    assert book.uses_by("FANS10", "lee@example.com") == 0


def test_customers_are_matched_like_orders(subject, pricing, now, params):
    book = _book_with(pricing, max_uses_per_customer=1)
    book.redeem("FANS10", "E-500", now, customer=" Sam@Example.com ")
    assert book.uses_by("FANS10", "sam@example.com") == 1
    assert book.uses_by("FANS10", "SAM@EXAMPLE.COM") == 1
    with subject.raises(_limit_error(params)) as info:
        book.redeem("FANS10", "E-500", now, customer="sam@EXAMPLE.com")
    assert info.value.message == params["per_customer_message"].format(code="FANS10", limit=1)
    assert book.get("FANS10").uses == 1


def test_the_limit_is_validated_and_optional(subject, pricing, now):
    plain = _book_with(pricing)
    assert plain.get("FANS10").max_uses_per_customer is None
    for _ in range(3):
        plain.redeem("FANS10", "E-500", now, customer="sam@example.com")
    assert plain.uses_by("FANS10", "sam@example.com") == 3
    with subject.raises("builtins.ValueError"):
        _book_with(pricing, max_uses_per_customer=0)
    # The overall limit still applies to customers with a share left.
    book = _book_with(pricing, max_uses=1, max_uses_per_customer=1)
    book.redeem("FANS10", "E-500", now, customer="sam@example.com")
    with subject.raises("pricing.InvalidDiscountCodeError"):
        book.redeem("FANS10", "E-500", now, customer="kim@example.com")


def test_the_per_customer_limit_has_a_ceiling(subject, pricing, now, params):
    ceiling = params["per_customer_max"]
    book = _book_with(pricing, max_uses_per_customer=ceiling)
    for _ in range(ceiling):
        book.redeem("FANS10", "E-500", now, customer="sam@example.com")
    with subject.raises(_limit_error(params)) as info:
        book.validate("fans10", "E-500", now, customer="sam@example.com")
    assert info.value.message == params["per_customer_message"].format(code="FANS10", limit=ceiling)
    with subject.raises("builtins.ValueError"):
        _book_with(pricing, max_uses_per_customer=ceiling + 1)


def test_cancelling_an_order_gives_no_use_back(subject, pricing, make_service, now, params):
    service = make_service()
    kind = pricing.DiscountKind.PERCENT
    fans = pricing.DiscountCode("FANS10", kind, Decimal("10"), max_uses_per_customer=1)
    service.discounts.add(fans)
    first = service.hold_seats("E-500", ["STL-C-1"], now)
    order = service.checkout(first.hold_id, "ana@example.com", now, discount_code="FANS10")
    service.cancel_order(order.order_id, now)
    assert service.discounts.uses_by("FANS10", "ana@example.com") == 1
    assert service.discounts.get("FANS10").uses == 1
    again = service.hold_seats("E-500", ["STL-C-1"], now)
    with subject.raises(_limit_error(params)):
        service.checkout(again.hold_id, "ana@example.com", now, discount_code="FANS10")


def test_checkout_applies_the_limit_and_changes_nothing(
    subject, pricing, make_service, same, now, params
):
    service = make_service()
    kind = pricing.DiscountKind.PERCENT
    fans = pricing.DiscountCode("FANS10", kind, Decimal("10"), max_uses_per_customer=1)
    service.discounts.add(fans)
    first = service.hold_seats("E-500", ["STL-C-1"], now)
    service.checkout(first.hold_id, "Ana@Example.com", now, discount_code="FANS10")
    assert service.discounts.uses_by("FANS10", "ana@example.com") == 1
    again = service.hold_seats("E-500", ["STL-C-2"], now)
    # A quote knows no customer, so it still prices the code.
    assert service.quote(again.hold_id, now, discount_code="FANS10").discount_total == Decimal(
        "4.50"
    )
    with subject.raises(_limit_error(params)):
        service.checkout(again.hold_id, " ana@example.com", now, discount_code="fans10")
    assert same(service.holds.get(again.hold_id), again)
    assert service.seatmap("E-500").status("STL-C-2") == subject.module("events").SeatStatus.HELD
    assert service.discounts.get("FANS10").uses == 1
    assert len(service.orders) == 1
    order = service.checkout(again.hold_id, "bo@example.com", now, discount_code="FANS10")
    assert order.discount_total == Decimal("4.50")
    assert service.discounts.get("FANS10").uses == 2
