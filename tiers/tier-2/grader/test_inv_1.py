"""INV-1: safety stock per warehouse."""

import pytest
from catalog import UnknownSkuError
from inventory import InsufficientStockError, Inventory, UnknownWarehouseError


def test_safety_stock_reduces_available(inventory: Inventory) -> None:
    assert inventory.safety_stock("BER", "MUG-2001") == 0
    inventory.set_safety_stock("BER", "MUG-2001", 5)
    assert inventory.safety_stock("BER", "MUG-2001") == 5
    assert inventory.on_hand("BER", "MUG-2001") == 12
    assert inventory.available("BER", "MUG-2001") == 7
    assert inventory.total_available("MUG-2001") == 37
    row = next(r for r in inventory.stock_report() if (r.warehouse, r.sku) == ("BER", "MUG-2001"))
    assert row.available == 7


def test_reservations_cannot_use_safety_stock(inventory: Inventory) -> None:
    inventory.set_safety_stock("BER", "MUG-2001", 5)
    with pytest.raises(InsufficientStockError) as info:
        inventory.reserve("MUG-2001", 8, reference="SO-1", warehouse="BER")
    assert info.value.available == 7
    assert inventory.reserved("BER", "MUG-2001") == 0
    [reservation] = inventory.reserve("MUG-2001", 7, reference="SO-2", warehouse="BER")
    assert reservation.quantity == 7
    assert inventory.available("BER", "MUG-2001") == 0


def test_available_never_negative_and_zero_removes(inventory: Inventory) -> None:
    inventory.set_safety_stock("BER", "DSK-5001", 10)
    assert inventory.available("BER", "DSK-5001") == 0
    with pytest.raises(InsufficientStockError):
        inventory.reserve("DSK-5001", 1, reference="SO-1")
    inventory.set_safety_stock("BER", "DSK-5001", 0)
    assert inventory.available("BER", "DSK-5001") == 3


def test_adjustments_may_go_below_safety_stock(inventory: Inventory) -> None:
    inventory.set_safety_stock("BER", "MUG-2001", 10)
    assert inventory.adjust("BER", "MUG-2001", -5, reason="breakage") == 7
    assert inventory.available("BER", "MUG-2001") == 0
    assert inventory.safety_stock("BER", "MUG-2001") == 10


def test_safety_stock_validation(inventory: Inventory) -> None:
    with pytest.raises(ValueError):
        inventory.set_safety_stock("BER", "MUG-2001", -1)
    with pytest.raises(ValueError):
        inventory.set_safety_stock("BER", "MUG-2001", 2.5)  # type: ignore[arg-type]
    with pytest.raises(UnknownWarehouseError):
        inventory.set_safety_stock("MUC", "MUG-2001", 1)
    with pytest.raises(UnknownSkuError):
        inventory.set_safety_stock("BER", "MUG-9999", 1)
    assert inventory.safety_stock("BER", "MUG-2001") == 0
