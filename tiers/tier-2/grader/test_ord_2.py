"""ORD-2: large orders are held for manual review."""

from decimal import Decimal

import pytest
from catalog import Catalog
from inventory import Inventory, ReservationStatus
from orders import Address, InvalidTransitionError, OrderService, OrderStatus


def _server_order(service: OrderService, address: Address) -> str:
    order = service.create_order("C-1", address)
    service.add_line(order.order_id, "SRV-7001", 1)
    return order.order_id


def test_total_of_1000_or_more_goes_on_hold(
    service: OrderService, catalog: Catalog, inventory: Inventory, berlin: Address
) -> None:
    catalog.update_price("SRV-7001", "840.33")
    below = _server_order(service, berlin)
    assert service.totals(below).total == Decimal("999.99")
    assert service.place(below).status is OrderStatus.ALLOCATED

    catalog.update_price("SRV-7001", "840.34")
    at = _server_order(service, berlin)
    assert service.totals(at).total == Decimal("1000.00")
    order = service.place(at)
    assert order.status is OrderStatus.ON_HOLD
    assert OrderStatus.ON_HOLD.value == "on_hold"
    assert order.history == [(OrderStatus.DRAFT, OrderStatus.ON_HOLD)]
    assert inventory.reserved("BER", "SRV-7001") == 2


def test_approve_releases_the_hold(
    service: OrderService, inventory: Inventory, berlin: Address
) -> None:
    order_id = _server_order(service, berlin)
    service.place(order_id)
    order = service.approve(order_id)
    assert order.status is OrderStatus.ALLOCATED
    assert order.history[-1] == (OrderStatus.ON_HOLD, OrderStatus.ALLOCATED)
    service.mark_shipped(order_id)
    assert inventory.on_hand("BER", "SRV-7001") == 4
    with pytest.raises(InvalidTransitionError):
        service.approve(order_id)


def test_only_held_orders_can_be_approved(service: OrderService, berlin: Address) -> None:
    order = service.create_order("C-1", berlin)
    service.add_line(order.order_id, "MUG-2001", 1)
    with pytest.raises(InvalidTransitionError):
        service.approve(order.order_id)
    service.place(order.order_id)
    with pytest.raises(InvalidTransitionError):
        service.approve(order.order_id)
    assert order.status is OrderStatus.ALLOCATED


def test_held_order_cannot_ship_but_can_be_cancelled(
    service: OrderService, inventory: Inventory, paris: Address
) -> None:
    order_id = _server_order(service, paris)
    order = service.place(order_id)
    assert order.status is OrderStatus.ON_HOLD
    with pytest.raises(InvalidTransitionError):
        service.mark_shipped(order_id)
    assert inventory.on_hand("BER", "SRV-7001") == 5
    assert inventory.reserved("BER", "SRV-7001") == 1
    service.cancel(order_id)
    assert order.status is OrderStatus.CANCELLED
    assert inventory.reserved("BER", "SRV-7001") == 0
    assert [inventory.get_reservation(r).status for r in order.reservation_ids] == [
        ReservationStatus.RELEASED
    ]
