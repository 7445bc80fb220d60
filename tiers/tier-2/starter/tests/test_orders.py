from decimal import Decimal

import pytest

from catalog import Catalog, InactiveProductError
from inventory import InsufficientStockError, Inventory, ReservationStatus
from orders import (
    Address,
    Coupon,
    EmptyOrderError,
    InvalidTransitionError,
    OrderError,
    OrderLineError,
    OrderService,
    OrderStatus,
    price_order,
)


def test_order_ids_are_sequential(service: OrderService, berlin: Address) -> None:
    first = service.create_order("C-1", berlin)
    second = service.create_order("C-2", berlin)
    assert (first.order_id, second.order_id) == ("SO-00001", "SO-00002")
    assert first.status is OrderStatus.DRAFT


def test_lines_merge_and_keep_their_price(
    service: OrderService, catalog: Catalog, berlin: Address
) -> None:
    order = service.create_order("C-1", berlin)
    service.add_line(order.order_id, "MUG-2001", 2)
    catalog.update_price("MUG-2001", "9.50")
    service.add_line(order.order_id, "MUG-2001", 3)
    assert len(order.lines) == 1
    assert order.line("MUG-2001").quantity == 5
    assert order.line("MUG-2001").unit_price == Decimal("8.50")
    assert order.line("MUG-2001").line_total == Decimal("42.50")


def test_line_validation(service: OrderService, catalog: Catalog, berlin: Address) -> None:
    order = service.create_order("C-1", berlin)
    with pytest.raises(OrderLineError):
        service.add_line(order.order_id, "MUG-2001", 0)
    with pytest.raises(OrderLineError):
        service.add_line(order.order_id, "MUG-2001", 10_000)
    catalog.discontinue("LMP-3001")
    with pytest.raises(InactiveProductError):
        service.add_line(order.order_id, "LMP-3001", 1)


def test_price_with_coupon_and_vat(service: OrderService, berlin: Address) -> None:
    order = service.create_order("C-1", berlin)
    service.add_line(order.order_id, "MUG-2001", 3)
    service.apply_coupon(order.order_id, Coupon("WELCOME10", Decimal(10), Decimal("20.00")))
    price = service.totals(order.order_id)
    assert price.subtotal == Decimal("25.50")
    assert price.discount == Decimal("2.55")
    assert price.net == Decimal("22.95")
    assert price.vat_rate == Decimal("0.19")
    assert price.vat == Decimal("4.36")
    assert price.total == Decimal("27.31")


def test_coupon_below_minimum_and_exports(service: OrderService) -> None:
    order = service.create_order("C-1", Address("Jane Roe", "1 Main St", "10001", "New York", "US"))
    service.add_line(order.order_id, "BOX-1001", 5)
    service.apply_coupon(order.order_id, Coupon("BIG20", Decimal(20), Decimal("50.00")))
    price = price_order(order)
    assert (price.subtotal, price.discount, price.vat, price.total) == (
        Decimal("6.00"),
        Decimal("0.00"),
        Decimal("0.00"),
        Decimal("6.00"),
    )


def test_place_reserves_stock(service: OrderService, inventory: Inventory, berlin: Address) -> None:
    order = service.create_order("C-1", berlin)
    service.add_line(order.order_id, "MUG-2001", 4)
    service.add_line(order.order_id, "BAT-4001", 2)
    service.place(order.order_id)
    assert order.status is OrderStatus.ALLOCATED
    assert order.history == [(OrderStatus.DRAFT, OrderStatus.ALLOCATED)]
    assert len(order.reservation_ids) == 2
    assert inventory.reserved("HAM", "MUG-2001") == 4
    assert inventory.reserved("BER", "BAT-4001") == 2
    with pytest.raises(OrderError):
        service.add_line(order.order_id, "BOX-1001", 1)


def test_place_is_all_or_nothing(
    service: OrderService, inventory: Inventory, berlin: Address
) -> None:
    order = service.create_order("C-1", berlin)
    service.add_line(order.order_id, "BOX-1001", 10)
    service.add_line(order.order_id, "DSK-5001", 4)
    with pytest.raises(InsufficientStockError):
        service.place(order.order_id)
    assert order.status is OrderStatus.DRAFT
    assert inventory.reserved("BER", "BOX-1001") == 0
    with pytest.raises(EmptyOrderError):
        service.place(service.create_order("C-2", berlin).order_id)


def test_cancel_releases_reservations(
    service: OrderService, inventory: Inventory, berlin: Address
) -> None:
    order = service.create_order("C-1", berlin)
    service.add_line(order.order_id, "LMP-3001", 2)
    service.place(order.order_id)
    service.cancel(order.order_id)
    assert order.status is OrderStatus.CANCELLED
    assert inventory.available("HAM", "LMP-3001") == 4
    statuses = [inventory.get_reservation(r).status for r in order.reservation_ids]
    assert statuses == [ReservationStatus.RELEASED]


def test_ship_fulfils_and_is_final(
    service: OrderService, inventory: Inventory, berlin: Address
) -> None:
    order = service.create_order("C-1", berlin)
    service.add_line(order.order_id, "DSK-5001", 1)
    service.place(order.order_id)
    service.mark_shipped(order.order_id)
    assert order.status is OrderStatus.SHIPPED
    assert inventory.on_hand("BER", "DSK-5001") == 2
    with pytest.raises(InvalidTransitionError):
        service.cancel(order.order_id)
    with pytest.raises(InvalidTransitionError):
        service.mark_shipped(order.order_id)
