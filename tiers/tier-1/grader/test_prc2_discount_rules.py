"""PRC-2: capped percentage codes and minimum ticket counts (the error's name and message are
seeded)."""

from decimal import Decimal


def _not_applicable(params):
    return f"pricing.errors.{params['not_applicable_error']}"


def _code(pricing, name, kind, value, **fields):
    return pricing.DiscountCode(name, getattr(pricing.DiscountKind, kind), Decimal(value), **fields)


def test_percentage_codes_can_be_capped(pricing):
    code = _code(pricing, "big20", "PERCENT", "20", max_discount=Decimal("25.00"))
    assert pricing.discount_amount(code, Decimal("300.00"), "USD") == Decimal("25.00")
    assert pricing.discount_amount(code, Decimal("125.00"), "USD") == Decimal("25.00")
    assert pricing.discount_amount(code, Decimal("100.00"), "USD") == Decimal("20.00")


def test_caps_and_minimums_are_validated(subject, pricing):
    plain = _code(pricing, "PLAIN", "PERCENT", "5")
    assert plain.max_discount is None and plain.min_tickets == 1
    with subject.raises("builtins.ValueError"):
        _code(pricing, "FLAT", "AMOUNT", "5", currency="USD", max_discount=Decimal("3"))
    with subject.raises("builtins.ValueError"):
        _code(pricing, "ZERO", "PERCENT", "5", max_discount=Decimal("0"))
    with subject.raises("builtins.ValueError"):
        _code(pricing, "MINUS", "PERCENT", "5", max_discount=Decimal("-5"))
    with subject.raises("builtins.ValueError"):
        _code(pricing, "NONE", "PERCENT", "5", min_tickets=0)


def test_min_tickets_goes_up_to_the_largest_group(subject, pricing, params):
    largest = params["group_tickets_max"]
    code = _code(pricing, "CLUB", "PERCENT", "10", min_tickets=largest)
    assert code.min_tickets == largest
    assert pricing.discount_amount(code, Decimal("500.00"), "USD", tickets=largest) == Decimal(
        "50.00"
    )
    with subject.raises("builtins.ValueError"):
        _code(pricing, "CROWD", "PERCENT", "10", min_tickets=largest + 1)
    with subject.raises("builtins.ValueError"):
        _code(pricing, "CROWD", "AMOUNT", "10", currency="USD", min_tickets=largest + 1)


def test_minimum_ticket_count(subject, pricing, params):
    message = params["min_tickets_message"]
    code = _code(pricing, "group4", "PERCENT", "10", min_tickets=4)
    with subject.raises(_not_applicable(params)) as info:
        pricing.discount_amount(code, Decimal("180.00"), "USD", tickets=3)
    assert subject.isinstance(info.value.ref, "pricing.InvalidDiscountCodeError")
    assert info.value.message == message.format(code="GROUP4", count=4)
    with subject.raises(_not_applicable(params)):
        pricing.discount_amount(code, Decimal("180.00"), "USD")
    assert pricing.discount_amount(code, Decimal("180.00"), "USD", tickets=4) == Decimal("18.00")
    flat = _code(pricing, "PAIR", "AMOUNT", "7", currency="USD", min_tickets=2)
    assert pricing.discount_amount(flat, Decimal("90.00"), "USD", tickets=2) == Decimal("7.00")
    with subject.raises(_not_applicable(params)) as info:
        pricing.discount_amount(flat, Decimal("90.00"), "USD", tickets=1)
    assert info.value.message == message.format(code="PAIR", count=2)


def test_checkout_enforces_the_minimum_and_changes_nothing(
    subject, pricing, make_service, same, now, params
):
    service = make_service()
    service.discounts.add(_code(pricing, "GROUP4", "PERCENT", "10", min_tickets=4))
    small = service.hold_seats("E-500", ["STL-C-1", "STL-C-2", "STL-C-3"], now)
    with subject.raises(_not_applicable(params)):
        service.quote(small.hold_id, now, discount_code="group4")
    with subject.raises(_not_applicable(params)):
        service.checkout(small.hold_id, "max@example.com", now, discount_code="GROUP4")
    assert same(service.holds.get(small.hold_id), small)
    assert service.discounts.get("GROUP4").uses == 0
    assert len(service.orders) == 0
    big = service.hold_seats("E-500", ["STL-C-5", "STL-C-6", "STL-C-7", "STL-C-8"], now)
    order = service.checkout(big.hold_id, "max@example.com", now, discount_code="GROUP4")
    assert order.discount_total == Decimal("18.00")


def test_capped_discount_is_spread_over_the_quote(pricing, make_service, now):
    service = make_service()
    service.discounts.add(_code(pricing, "BIG20", "PERCENT", "20", max_discount=Decimal("25")))
    hold = service.hold_seats("E-500", ["BOX-A-1", "BOX-A-2", "BOX-A-3"], now)
    quote = service.quote(hold.hold_id, now, discount_code="BIG20")
    assert [line.discount for line in quote.lines] == [
        Decimal("8.34"),
        Decimal("8.33"),
        Decimal("8.33"),
    ]
