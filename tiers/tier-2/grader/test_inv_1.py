"""INV-1: stock kept back per warehouse (the methods' name and the largest quantity are seeded)."""

import pytest


@pytest.fixture
def kept(inventory, params):
    """(set, get): the seeded `set_<name>` and `<name>` methods of the inventory."""
    name = params["buffer_name"]
    return getattr(inventory, f"set_{name}"), getattr(inventory, name)


def test_safety_stock_reduces_available(inventory, kept):
    keep, kept_back = kept
    assert kept_back("BER", "MUG-2001") == 0
    assert keep("BER", "MUG-2001", 5) is None
    assert kept_back("BER", "MUG-2001") == 5
    assert kept_back("HAM", "MUG-2001") == 0
    assert inventory.on_hand("BER", "MUG-2001") == 12
    assert inventory.available("BER", "MUG-2001") == 7
    assert inventory.total_available("MUG-2001") == 37
    row = next(r for r in inventory.stock_report() if (r.warehouse, r.sku) == ("BER", "MUG-2001"))
    assert row.available == 7


def test_reservations_cannot_use_safety_stock(subject, inventory, kept):
    keep, _ = kept
    keep("BER", "MUG-2001", 5)
    with subject.raises("inventory.InsufficientStockError") as info:
        inventory.reserve("MUG-2001", 8, reference="SO-1", warehouse="BER")
    assert info.value.available == 7
    assert inventory.reserved("BER", "MUG-2001") == 0
    [reservation] = inventory.reserve("MUG-2001", 7, reference="SO-2", warehouse="BER")
    assert reservation.quantity == 7
    assert inventory.available("BER", "MUG-2001") == 0
    keep("HAM", "MUG-2001", 25)
    with subject.raises("inventory.InsufficientStockError"):
        inventory.reserve("MUG-2001", 6, reference="SO-3")
    assert inventory.reserved("HAM", "MUG-2001") == 0


def test_available_never_negative_and_zero_removes(subject, inventory, kept):
    keep, kept_back = kept
    keep("BER", "DSK-5001", 10)
    assert inventory.available("BER", "DSK-5001") == 0
    assert inventory.total_available("DSK-5001") == 0
    with subject.raises("inventory.InsufficientStockError"):
        inventory.reserve("DSK-5001", 1, reference="SO-1")
    keep("BER", "DSK-5001", 0)
    assert kept_back("BER", "DSK-5001") == 0
    assert inventory.available("BER", "DSK-5001") == 3


def test_adjustments_may_go_below_safety_stock(inventory, kept):
    keep, kept_back = kept
    keep("BER", "MUG-2001", 10)
    assert inventory.adjust("BER", "MUG-2001", -5, reason="breakage") == 7
    assert inventory.available("BER", "MUG-2001") == 0
    assert kept_back("BER", "MUG-2001") == 10
    # Shipping and releasing reserved stock ignore it too.
    [shipped] = inventory.reserve("MUG-2001", 20, reference="SO-1", warehouse="HAM")
    [released] = inventory.reserve("MUG-2001", 5, reference="SO-2", warehouse="HAM")
    keep("HAM", "MUG-2001", 25)
    inventory.fulfil(shipped.reservation_id)
    inventory.release(released.reservation_id)
    assert (inventory.on_hand("HAM", "MUG-2001"), inventory.reserved("HAM", "MUG-2001")) == (10, 0)
    assert inventory.available("HAM", "MUG-2001") == 0
    assert kept_back("HAM", "MUG-2001") == 25


def test_safety_stock_validation(subject, kept):
    keep, kept_back = kept
    keep("BER", "MUG-2001", 4)
    for bad in (-1, 2.5):
        with subject.raises("builtins.ValueError"):
            keep("BER", "MUG-2001", bad)
    with subject.raises("inventory.UnknownWarehouseError"):
        keep("MUC", "MUG-2001", 1)
    with subject.raises("catalog.UnknownSkuError"):
        keep("BER", "MUG-9999", 1)
    assert kept_back("BER", "MUG-2001") == 4


def test_quantity_above_the_limit_is_refused(subject, inventory, kept, params):
    keep, kept_back = kept
    limit = params["buffer_max"]
    inventory.receive("HAM", "BOX-1001", 5000)
    keep("HAM", "BOX-1001", limit)
    assert kept_back("HAM", "BOX-1001") == limit
    assert inventory.available("HAM", "BOX-1001") == 5040 - limit
    with subject.raises("builtins.ValueError"):
        keep("HAM", "BOX-1001", limit + 1)
    assert kept_back("HAM", "BOX-1001") == limit
