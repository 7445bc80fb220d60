"""Choosing the warehouse(s) a reservation is taken from."""

from __future__ import annotations

from collections.abc import Mapping

from .errors import InsufficientStockError


def rank_warehouses(available: Mapping[str, int]) -> list[tuple[str, int]]:
    """Warehouses with stock, best first: most available stock, ties by warehouse code."""
    stocked = [(code, quantity) for code, quantity in available.items() if quantity > 0]
    return sorted(stocked, key=lambda item: (-item[1], item[0]))


def plan_allocation(sku: str, available: Mapping[str, int], quantity: int) -> list[tuple[str, int]]:
    """Decide which warehouse(s) ``quantity`` units of ``sku`` are reserved from.

    ``available`` maps the code of every active warehouse to its available stock of the SKU.
    Returns ``[(warehouse_code, quantity), ...]``. The whole quantity comes from one warehouse:
    the one with the most available stock (ties: alphabetically first code). If no single
    warehouse can supply all of it, raises :class:`InsufficientStockError` whose ``available``
    is the most that any single warehouse could have supplied.
    """
    ranked = rank_warehouses(available)
    if ranked and ranked[0][1] >= quantity:
        return [(ranked[0][0], quantity)]
    best = ranked[0][1] if ranked else 0
    raise InsufficientStockError(sku, quantity, best)
