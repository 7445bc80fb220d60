"""Stock levels per warehouse, and reservations of stock for customer orders.

``inventory`` may use the catalogue; the stock ledger (``inventory.ledger``) is private to
this package: other packages read movements through :meth:`Inventory.movements`.
"""

from .errors import (
    DuplicateWarehouseError,
    InsufficientStockError,
    InventoryError,
    ReservationStateError,
    UnknownReservationError,
    UnknownWarehouseError,
)
from .movements import Movement, MovementKind
from .stock import Inventory, Reservation, ReservationStatus, StockRow
from .warehouse import Warehouse

__all__ = [
    "DuplicateWarehouseError",
    "InsufficientStockError",
    "Inventory",
    "InventoryError",
    "Movement",
    "MovementKind",
    "Reservation",
    "ReservationStateError",
    "ReservationStatus",
    "StockRow",
    "UnknownReservationError",
    "UnknownWarehouseError",
    "Warehouse",
]
