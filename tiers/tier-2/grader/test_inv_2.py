"""INV-2: split reservations across warehouses."""

import pytest
from catalog import Catalog
from inventory import InsufficientStockError, Inventory, Warehouse
from orders import Address, OrderService, OrderStatus


def test_split_over_two_warehouses(inventory: Inventory) -> None:
    reservations = inventory.reserve("MUG-2001", 40, reference="SO-1")
    assert [(r.warehouse, r.quantity) for r in reservations] == [("HAM", 30), ("BER", 10)]
    assert {r.reference for r in reservations} == {"SO-1"}
    assert inventory.available("HAM", "MUG-2001") == 0
    assert inventory.available("BER", "MUG-2001") == 2


def test_split_order_and_ties(catalog: Catalog) -> None:
    stock = Inventory(catalog)
    for code in ("HAM", "MUC", "BER"):
        stock.add_warehouse(Warehouse(code, f"Site {code}", "DE"))
    stock.receive("MUC", "BOX-1001", 8)
    stock.receive("HAM", "BOX-1001", 4)
    stock.receive("BER", "BOX-1001", 4)
    reservations = stock.reserve("BOX-1001", 14, reference="SO-9")
    assert [(r.warehouse, r.quantity) for r in reservations] == [("MUC", 8), ("BER", 4), ("HAM", 2)]


def test_inactive_warehouses_are_skipped(catalog: Catalog, inventory: Inventory) -> None:
    inventory.add_warehouse(Warehouse("MUC", "Munich", "DE"))
    inventory.receive("MUC", "MUG-2001", 10)
    inventory.set_active("HAM", False)
    reservations = inventory.reserve("MUG-2001", 20, reference="SO-1")
    assert [(r.warehouse, r.quantity) for r in reservations] == [("BER", 12), ("MUC", 8)]
    assert inventory.reserved("HAM", "MUG-2001") == 0


def test_shortfall_reports_total_available(inventory: Inventory) -> None:
    with pytest.raises(InsufficientStockError) as info:
        inventory.reserve("MUG-2001", 43, reference="SO-1")
    assert (info.value.requested, info.value.available) == (43, 42)
    assert inventory.reserved("HAM", "MUG-2001") == 0
    assert inventory.reserved("BER", "MUG-2001") == 0


def test_orders_needing_two_warehouses_can_be_placed(
    service: OrderService, inventory: Inventory, berlin: Address
) -> None:
    order = service.create_order("C-1", berlin)
    service.add_line(order.order_id, "MUG-2001", 35)
    service.place(order.order_id)
    assert order.status is OrderStatus.ALLOCATED
    assert len(order.reservation_ids) == 2
    assert inventory.reserved("HAM", "MUG-2001") + inventory.reserved("BER", "MUG-2001") == 35
