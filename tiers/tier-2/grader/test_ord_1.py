"""ORD-1: volume discount per order line."""

from decimal import Decimal

from orders import Address, Coupon, OrderService


def test_five_percent_from_ten_units_rounded_half_up(
    service: OrderService, berlin: Address
) -> None:
    order = service.create_order("C-1", berlin)
    service.add_line(order.order_id, "TIE-6001", 10)
    price = service.totals(order.order_id)
    assert price.subtotal == Decimal("2.50")
    assert price.volume_discount == Decimal("0.13")
    assert price.coupon_discount == Decimal("0.00")
    assert price.discount == Decimal("0.13")
    assert (price.net, price.vat, price.total) == (
        Decimal("2.37"),
        Decimal("0.45"),
        Decimal("2.82"),
    )


def test_ten_percent_from_fifty_units_and_lines_are_separate(
    service: OrderService, berlin: Address
) -> None:
    order = service.create_order("C-1", berlin)
    service.add_line(order.order_id, "BOX-1001", 50)
    service.add_line(order.order_id, "MUG-2001", 9)
    service.add_line(order.order_id, "TIE-6001", 9)
    price = service.totals(order.order_id)
    assert price.subtotal == Decimal("138.75")
    assert price.volume_discount == Decimal("6.00")
    assert price.discount == Decimal("6.00")
    assert price.net == Decimal("132.75")
    assert price.vat == Decimal("25.22")
    assert price.total == Decimal("157.97")


def test_forty_nine_units_get_five_percent(service: OrderService, new_york: Address) -> None:
    order = service.create_order("C-1", new_york)
    service.add_line(order.order_id, "MUG-2001", 49)
    price = service.totals(order.order_id)
    assert price.subtotal == Decimal("416.50")
    assert price.volume_discount == Decimal("20.83")
    assert price.total == Decimal("395.67")


def test_coupon_applies_after_volume_discount(service: OrderService, new_york: Address) -> None:
    order = service.create_order("C-1", new_york)
    service.add_line(order.order_id, "MUG-2001", 20)
    service.apply_coupon(order.order_id, Coupon("SPRING10", Decimal(10), Decimal("100.00")))
    price = service.totals(order.order_id)
    assert (price.subtotal, price.volume_discount, price.coupon_discount) == (
        Decimal("170.00"),
        Decimal("8.50"),
        Decimal("16.15"),
    )
    assert price.discount == Decimal("24.65")
    assert price.total == Decimal("145.35")

    service.apply_coupon(order.order_id, Coupon("BIGSPEND", Decimal(10), Decimal("165.00")))
    price = service.totals(order.order_id)
    assert (price.coupon_discount, price.discount, price.total) == (
        Decimal("0.00"),
        Decimal("8.50"),
        Decimal("161.50"),
    )
