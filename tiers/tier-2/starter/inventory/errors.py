"""Errors raised by the inventory. All of them derive from :class:`InventoryError`."""

from __future__ import annotations


class InventoryError(Exception):
    """Base class of every inventory error."""


class UnknownWarehouseError(InventoryError, KeyError):
    """No warehouse with this code is registered."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code

    def __str__(self) -> str:
        return f"unknown warehouse {self.code!r}"


class DuplicateWarehouseError(InventoryError):
    """A warehouse with this code is already registered."""


class InsufficientStockError(InventoryError):
    """Not enough available stock to reserve or remove the requested quantity.

    ``requested`` is the quantity asked for; ``available`` is how much could have been
    supplied instead (see :meth:`inventory.Inventory.reserve` for what that means).
    """

    def __init__(self, sku: str, requested: int, available: int) -> None:
        super().__init__(
            f"insufficient stock of {sku}: requested {requested}, available {available}"
        )
        self.sku = sku
        self.requested = requested
        self.available = available


class UnknownReservationError(InventoryError, KeyError):
    """No reservation with this id exists."""

    def __init__(self, reservation_id: str) -> None:
        super().__init__(reservation_id)
        self.reservation_id = reservation_id

    def __str__(self) -> str:
        return f"unknown reservation {self.reservation_id!r}"


class ReservationStateError(InventoryError):
    """The reservation was already released or fulfilled."""
