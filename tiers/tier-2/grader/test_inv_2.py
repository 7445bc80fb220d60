"""INV-2: reservations split over warehouses (the most warehouses per reservation is seeded)."""

import pytest

# Warehouses and their stock of BOX-1001 for the split-limit test, most stock first.
SITES = [("KLN", 10), ("MUC", 9), ("STR", 8), ("FRA", 7), ("DUS", 6), ("LEJ", 5), ("HAN", 4)]


@pytest.fixture
def sites(subject, catalog):
    """make(stock): a fresh inventory whose warehouses hold `stock` ([(code, quantity)])."""
    inventory = subject.module("inventory")

    def make(stock):
        sites = inventory.Inventory(catalog)
        for code, quantity in stock:
            sites.add_warehouse(inventory.Warehouse(code, f"Site {code}", "DE"))
            sites.receive(code, "BOX-1001", quantity)
        return sites

    return make


def test_split_over_two_warehouses(inventory):
    reservations = inventory.reserve("MUG-2001", 40, reference="SO-1")
    assert [(r.warehouse, r.quantity) for r in reservations] == [("HAM", 30), ("BER", 10)]
    assert {r.reference for r in reservations} == {"SO-1"}
    assert inventory.available("HAM", "MUG-2001") == 0
    assert inventory.available("BER", "MUG-2001") == 2


def test_split_order_and_ties(sites):
    stock = sites([("HAM", 4), ("MUC", 8), ("BER", 4)])
    reservations = stock.reserve("BOX-1001", 11, reference="SO-9")
    assert [(r.warehouse, r.quantity) for r in reservations] == [("MUC", 8), ("BER", 3)]
    assert stock.reserved("HAM", "BOX-1001") == 0


def test_split_uses_at_most_the_warehouse_limit(subject, sites, params):
    limit = params["max_split"]
    used, spare = SITES[:limit], SITES[limit]
    stock = sites([*reversed(SITES[: limit + 1])])
    enough = sum(quantity for _, quantity in used)
    reservations = stock.reserve("BOX-1001", enough, reference="SO-1")
    assert [(r.warehouse, r.quantity) for r in reservations] == used
    for reservation in reservations:
        stock.release(reservation.reservation_id)
    with subject.raises("inventory.InsufficientStockError") as info:
        stock.reserve("BOX-1001", enough + 1, reference="SO-2")
    assert (info.value.requested, info.value.available) == (enough + 1, enough)
    assert info.value.message == (
        f"insufficient stock of BOX-1001: requested {enough + 1}, available {enough}"
        f" ({params['split_note']})"
    )
    assert [stock.reserved(code, "BOX-1001") for code, _ in SITES[: limit + 1]] == [0] * (limit + 1)
    assert stock.available(spare[0], "BOX-1001") == spare[1]


def test_inactive_warehouses_are_skipped(subject, inventory):
    inventory.add_warehouse(subject.module("inventory").Warehouse("MUC", "Munich", "DE"))
    inventory.receive("MUC", "MUG-2001", 10)
    inventory.set_active("HAM", False)
    reservations = inventory.reserve("MUG-2001", 20, reference="SO-1")
    assert [(r.warehouse, r.quantity) for r in reservations] == [("BER", 12), ("MUC", 8)]
    assert inventory.reserved("HAM", "MUG-2001") == 0


def test_shortfall_reports_total_available(subject, inventory, params):
    with subject.raises("inventory.InsufficientStockError") as info:
        inventory.reserve("MUG-2001", 43, reference="SO-1")
    assert (info.value.requested, info.value.available) == (43, 42)
    assert info.value.message == (
        f"insufficient stock of MUG-2001: requested 43, available 42 ({params['split_note']})"
    )
    assert inventory.reserved("HAM", "MUG-2001") == 0
    assert inventory.reserved("BER", "MUG-2001") == 0


def test_orders_needing_two_warehouses_can_be_placed(subject, service, inventory, berlin):
    order = service.create_order("C-1", berlin)
    service.add_line(order.order_id, "MUG-2001", 35)
    service.place(order.order_id)
    assert order.status == subject.module("orders").OrderStatus.ALLOCATED
    assert len(order.reservation_ids) == 2
    assert inventory.reserved("HAM", "MUG-2001") + inventory.reserved("BER", "MUG-2001") == 35
