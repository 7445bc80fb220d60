"""Fixtures of the hidden tests (the grader's own; the agent's conftest files are never loaded).

The graded packages live in the subject process; every fixture builds its objects there, through
the `subject` fixture, and hands the tests remote references to them.
"""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from typing import Any

import pytest

# The visible tests' catalogue plus two products the sprint needs: a 0.25 EUR cable tie (half
# cents in volume discounts) and an 840.34 EUR, 18 kg rack server (big totals, freight weights).
PRODUCTS = [
    ("BOX-1001", "Folding box small", "1.20", "0.250", (30, 20, 10), False),
    ("MUG-2001", "Stoneware mug", "8.50", "0.450", (12, 12, 11), False),
    ("LMP-3001", "Floor lamp", "89.00", "6.800", (160, 30, 30), False),
    ("BAT-4001", "Power bank 20000 mAh", "34.90", "0.480", (16, 8, 3), True),
    ("DSK-5001", "Standing desk frame", "249.00", "24.500", (120, 60, 15), False),
    ("TIE-6001", "Cable tie 30 cm", "0.25", "0.005", (30, 1, 1), False),
    ("SRV-7001", "Rack server 1U", "840.34", "18.000", (60, 45, 20), False),
]
Sides = tuple[int, int, int]
STOCK = [
    ("BER", "BOX-1001", 100),
    ("HAM", "BOX-1001", 40),
    ("BER", "MUG-2001", 12),
    ("HAM", "MUG-2001", 30),
    ("HAM", "LMP-3001", 4),
    ("BER", "BAT-4001", 25),
    ("BER", "DSK-5001", 3),
    ("BER", "TIE-6001", 500),
    ("BER", "SRV-7001", 5),
]


@pytest.fixture
def make_product(subject: Any) -> Callable[..., Any]:
    """Build a `catalog.Product` in the subject: make_product(sku, name, price, kg, sides, ...)."""
    catalog = subject.module("catalog")

    def make(sku: str, name: str, price: str, kg: str, sides: Sides, **kw: Any) -> Any:
        dimensions = catalog.Dimensions(*sides)
        return catalog.Product(sku, name, Decimal(price), Decimal(kg), dimensions, **kw)

    return make


@pytest.fixture
def catalog(subject: Any, make_product: Callable[..., Any]) -> Any:
    products = [
        make_product(sku, name, price, kg, sides, hazmat=hazmat)
        for sku, name, price, kg, sides, hazmat in PRODUCTS
    ]
    return subject.module("catalog").Catalog(products)


@pytest.fixture
def inventory(subject: Any, catalog: Any) -> Any:
    inventory = subject.module("inventory")
    stock = inventory.Inventory(catalog)
    stock.add_warehouse(inventory.Warehouse("BER", "Berlin Mitte", "DE"))
    stock.add_warehouse(inventory.Warehouse("HAM", "Hamburg Hafen", "DE"))
    for warehouse, sku, quantity in STOCK:
        stock.receive(warehouse, sku, quantity)
    return stock


@pytest.fixture
def service(subject: Any, catalog: Any, inventory: Any) -> Any:
    return subject.module("orders").OrderService(catalog, inventory)


@pytest.fixture
def berlin(subject: Any) -> Any:
    return subject.module("orders").Address(
        "Erika Mustermann", "Torstrasse 1", "10119", "Berlin", "DE"
    )


@pytest.fixture
def paris(subject: Any) -> Any:
    return subject.module("orders").Address(
        "Jean Dupont", "12 rue de Rivoli", "75001", "Paris", "FR"
    )


@pytest.fixture
def new_york(subject: Any) -> Any:
    return subject.module("orders").Address("Jane Roe", "1 Main St", "10001", "New York", "US")


@pytest.fixture
def contains(subject: Any) -> Callable[[Any, Any], bool]:
    """`contains(container, item)`: `item in container`, computed in the subject (a remote
    object has no usable `in` on the judge's side); anything but a bool fails the test."""
    operator = subject.module("operator")

    def check(container: Any, item: Any) -> bool:
        found = operator.contains(container, item)
        assert type(found) is bool, f"`in` answered {found!r}, not a bool"
        return found

    return check
