"""Fixtures of the hidden tests (the grader's own; the agent's conftest files are never loaded)."""

from __future__ import annotations

import pytest
from catalog import Catalog, Dimensions, Product
from inventory import Inventory, Warehouse
from orders import Address, OrderService


@pytest.fixture
def catalog() -> Catalog:
    return Catalog(
        [
            Product("BOX-1001", "Folding box small", "1.20", "0.250", Dimensions(30, 20, 10)),
            Product("MUG-2001", "Stoneware mug", "8.50", "0.450", Dimensions(12, 12, 11)),
            Product("LMP-3001", "Floor lamp", "89.00", "6.800", Dimensions(160, 30, 30)),
            Product(
                "BAT-4001",
                "Power bank 20000 mAh",
                "34.90",
                "0.480",
                Dimensions(16, 8, 3),
                hazmat=True,
            ),
            Product("DSK-5001", "Standing desk frame", "249.00", "24.500", Dimensions(120, 60, 15)),
            Product("TIE-6001", "Cable tie 30 cm", "0.25", "0.005", Dimensions(30, 1, 1)),
            Product("SRV-7001", "Rack server 1U", "840.34", "18.000", Dimensions(60, 45, 20)),
        ]
    )


@pytest.fixture
def inventory(catalog: Catalog) -> Inventory:
    stock = Inventory(catalog)
    stock.add_warehouse(Warehouse("BER", "Berlin Mitte", "DE"))
    stock.add_warehouse(Warehouse("HAM", "Hamburg Hafen", "DE"))
    stock.receive("BER", "BOX-1001", 100)
    stock.receive("HAM", "BOX-1001", 40)
    stock.receive("BER", "MUG-2001", 12)
    stock.receive("HAM", "MUG-2001", 30)
    stock.receive("HAM", "LMP-3001", 4)
    stock.receive("BER", "BAT-4001", 25)
    stock.receive("BER", "DSK-5001", 3)
    stock.receive("BER", "TIE-6001", 500)
    stock.receive("BER", "SRV-7001", 5)
    return stock


@pytest.fixture
def service(catalog: Catalog, inventory: Inventory) -> OrderService:
    return OrderService(catalog, inventory)


@pytest.fixture
def berlin() -> Address:
    return Address("Erika Mustermann", "Torstrasse 1", "10119", "Berlin", "DE")


@pytest.fixture
def paris() -> Address:
    return Address("Jean Dupont", "12 rue de Rivoli", "75001", "Paris", "FR")


@pytest.fixture
def new_york() -> Address:
    return Address("Jane Roe", "1 Main St", "10001", "New York", "US")
