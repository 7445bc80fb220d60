"""ORD-1: volume discount per order line (quantities and percentages are seeded)."""

from decimal import ROUND_HALF_UP, Decimal

CENT = Decimal("0.01")
TIE, MUG, BOX = Decimal("0.25"), Decimal("8.50"), Decimal("1.20")


def cents(amount):
    return amount.quantize(CENT, rounding=ROUND_HALF_UP)


def line_discount(quantity, unit_price, params):
    """The discount the requirement gives one line, rounded on its own."""
    if quantity >= params["pallet_qty"]:
        percent = params["pallet_pct"]
    elif quantity >= params["bulk_qty"]:
        percent = params["bulk_pct"]
    else:
        return Decimal("0.00")
    return cents(quantity * unit_price * percent / 100)


def test_bulk_discount_from_the_bulk_quantity_rounded_half_up(service, berlin, params):
    below = service.create_order("C-1", berlin)
    service.add_line(below.order_id, "TIE-6001", params["bulk_qty"] - 1)
    price = service.totals(below.order_id)
    assert (price.volume_discount, price.coupon_discount) == (Decimal("0.00"), Decimal("0.00"))

    quantity = params["bulk_round_qty"]  # its discount ends in half a cent
    order = service.create_order("C-2", berlin)
    service.add_line(order.order_id, "TIE-6001", quantity)
    price = service.totals(order.order_id)
    exact = quantity * TIE * params["bulk_pct"] / 100
    assert exact % CENT == CENT / 2, "the test needs a half cent here"
    discount = exact + CENT / 2
    assert price.subtotal == quantity * TIE
    assert price.volume_discount == discount
    assert price.coupon_discount == Decimal("0.00")
    assert price.discount == discount
    net = quantity * TIE - discount
    vat = cents(net * Decimal("0.19"))
    assert (price.net, price.vat, price.total) == (net, vat, net + vat)

    at = service.create_order("C-3", berlin)
    service.add_line(at.order_id, "TIE-6001", params["bulk_qty"])
    expected = line_discount(params["bulk_qty"], TIE, params)
    assert expected > 0
    assert service.totals(at.order_id).volume_discount == expected


def test_pallet_discount_and_lines_are_separate(service, berlin, params):
    pallet = params["pallet_round_qty"]  # its discount ends in half a cent
    small = params["bulk_qty"] - 1
    order = service.create_order("C-1", berlin)
    service.add_line(order.order_id, "TIE-6001", pallet)
    service.add_line(order.order_id, "MUG-2001", small)
    service.add_line(order.order_id, "BOX-1001", small)
    price = service.totals(order.order_id)
    subtotal = pallet * TIE + small * MUG + small * BOX
    discount = cents(pallet * TIE * params["pallet_pct"] / 100)
    assert discount == line_discount(pallet, TIE, params) and discount > 0
    assert price.subtotal == subtotal
    assert price.volume_discount == discount
    assert price.discount == discount
    net = subtotal - discount
    vat = cents(net * Decimal("0.19"))
    assert (price.net, price.vat, price.total) == (net, vat, net + vat)


def test_one_below_the_pallet_quantity_gets_the_bulk_discount(service, new_york, params):
    quantity = params["pallet_qty"] - 1
    order = service.create_order("C-1", new_york)
    service.add_line(order.order_id, "MUG-2001", quantity)
    price = service.totals(order.order_id)
    discount = cents(quantity * MUG * params["bulk_pct"] / 100)
    assert price.subtotal == quantity * MUG
    assert price.volume_discount == discount
    assert price.total == quantity * MUG - discount


def test_each_line_is_rounded_on_its_own(service, catalog, make_product, new_york, params):
    # Two lines whose discounts each end in half a cent: rounded per line they come to one
    # cent more than the rounded sum of the exact discounts.
    catalog.add(make_product("TIE-6002", "Cable tie 20 cm", "0.25", "0.004", (20, 1, 1)))
    quantity = params["bulk_round_qty"]
    order = service.create_order("C-1", new_york)
    service.add_line(order.order_id, "TIE-6001", quantity)
    service.add_line(order.order_id, "TIE-6002", quantity)
    exact = quantity * TIE * params["bulk_pct"] / 100
    per_line = 2 * cents(exact)
    assert per_line == cents(2 * exact) + CENT, "the test needs two half cents here"
    price = service.totals(order.order_id)
    assert price.volume_discount == per_line
    assert price.total == 2 * quantity * TIE - per_line


def test_coupon_applies_after_volume_discount(subject, service, new_york, params):
    coupon = subject.module("orders").Coupon
    order = service.create_order("C-1", new_york)
    service.add_line(order.order_id, "MUG-2001", 20)
    service.apply_coupon(order.order_id, coupon("SPRING10", Decimal(10), Decimal("100.00")))
    subtotal = 20 * MUG
    volume = line_discount(20, MUG, params)
    after = subtotal - volume
    assert (after, cents(after / 10)) == (
        Decimal(params["coupon_after_volume"]),
        Decimal(params["coupon_discount_example"]),
    )
    price = service.totals(order.order_id)
    assert (price.subtotal, price.volume_discount, price.coupon_discount) == (
        subtotal,
        volume,
        cents(after / 10),
    )
    assert price.discount == volume + cents(after / 10)
    assert price.total == Decimal(params["coupon_total_example"])

    service.apply_coupon(order.order_id, coupon("BIGSPEND", Decimal(10), Decimal("165.00")))
    price = service.totals(order.order_id)
    assert (price.coupon_discount, price.discount, price.total) == (
        Decimal("0.00"),
        volume,
        after,
    )
