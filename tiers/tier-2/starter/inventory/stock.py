"""Stock levels per (warehouse, SKU) and reservations against them."""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum

from catalog import Catalog

from .allocation import plan_allocation
from .errors import (
    DuplicateWarehouseError,
    InsufficientStockError,
    InventoryError,
    ReservationStateError,
    UnknownReservationError,
    UnknownWarehouseError,
)
from .ledger import Ledger
from .movements import Movement, MovementKind
from .warehouse import Warehouse


class ReservationStatus(StrEnum):
    """Life cycle of a reservation: ACTIVE until it is released or fulfilled (shipped)."""

    ACTIVE = "active"
    RELEASED = "released"
    FULFILLED = "fulfilled"


@dataclass(frozen=True)
class Reservation:
    """Stock of one SKU in one warehouse set aside for ``reference`` (usually an order id)."""

    reservation_id: str
    reference: str
    warehouse: str
    sku: str
    quantity: int
    status: ReservationStatus = ReservationStatus.ACTIVE


@dataclass(frozen=True)
class StockRow:
    """One line of :meth:`Inventory.stock_report`."""

    warehouse: str
    sku: str
    on_hand: int
    reserved: int
    available: int


@dataclass
class _Level:
    on_hand: int = 0
    reserved: int = 0


def _positive_int(value: int, field: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise ValueError(f"{field} must be a positive integer, got {value!r}")
    return value


class Inventory:
    """Stock of every SKU in every warehouse.

    Counters per (warehouse, SKU): ``on_hand`` (physically in the building) and ``reserved``
    (promised to orders, not yet shipped); ``available`` is what can still be promised.
    Every change is recorded as a :class:`Movement`.
    """

    def __init__(self, catalog: Catalog) -> None:
        self._catalog = catalog
        self._warehouses: dict[str, Warehouse] = {}
        self._levels: dict[tuple[str, str], _Level] = {}
        self._reservations: dict[str, Reservation] = {}
        self._ledger = Ledger()

    # -- warehouses -----------------------------------------------------------------------

    def add_warehouse(self, warehouse: Warehouse) -> Warehouse:
        """Register a warehouse; a code that is already registered raises an error."""
        if warehouse.code in self._warehouses:
            raise DuplicateWarehouseError(f"warehouse {warehouse.code} is already registered")
        self._warehouses[warehouse.code] = warehouse
        return warehouse

    def warehouse(self, code: str) -> Warehouse:
        """The warehouse with this code, or :class:`UnknownWarehouseError`."""
        try:
            return self._warehouses[code]
        except KeyError:
            raise UnknownWarehouseError(code) from None

    def warehouses(self, *, active_only: bool = False) -> list[Warehouse]:
        """Registered warehouses sorted by code."""
        found = sorted(self._warehouses.values(), key=lambda warehouse: warehouse.code)
        return [warehouse for warehouse in found if warehouse.active or not active_only]

    def set_active(self, code: str, active: bool) -> Warehouse:
        """Open or close a warehouse for new reservations. Its stock stays where it is."""
        updated = replace(self.warehouse(code), active=active)
        self._warehouses[code] = updated
        return updated

    # -- counters -------------------------------------------------------------------------

    def _level(self, warehouse: str, sku: str) -> _Level:
        self.warehouse(warehouse)
        self._catalog.get(sku)
        return self._levels.setdefault((warehouse, sku), _Level())

    def on_hand(self, warehouse: str, sku: str) -> int:
        """Units physically in the warehouse."""
        return self._level(warehouse, sku).on_hand

    def reserved(self, warehouse: str, sku: str) -> int:
        """Units promised to orders and not yet shipped."""
        return self._level(warehouse, sku).reserved

    def available(self, warehouse: str, sku: str) -> int:
        """Units that can still be reserved: on hand minus reserved."""
        level = self._level(warehouse, sku)
        return level.on_hand - level.reserved

    def total_available(self, sku: str) -> int:
        """Available units of ``sku`` over all active warehouses."""
        return sum(
            self.available(warehouse.code, sku) for warehouse in self.warehouses(active_only=True)
        )

    # -- goods in and corrections ---------------------------------------------------------

    def receive(self, warehouse: str, sku: str, quantity: int, *, reference: str = "") -> int:
        """Book goods in; returns the new on-hand quantity."""
        _positive_int(quantity, "quantity")
        level = self._level(warehouse, sku)
        level.on_hand += quantity
        self._ledger.record(
            MovementKind.RECEIPT, warehouse, sku, on_hand_delta=quantity, reference=reference
        )
        return level.on_hand

    def adjust(self, warehouse: str, sku: str, delta: int, *, reason: str) -> int:
        """Correct the on-hand quantity by ``delta`` (stock count, damage, loss).

        The on-hand quantity can never drop below what is reserved; trying raises
        :class:`InsufficientStockError`. ``reason`` is required and kept in the ledger.
        """
        if isinstance(delta, bool) or not isinstance(delta, int) or delta == 0:
            raise ValueError(f"delta must be a non-zero integer, got {delta!r}")
        if not reason.strip():
            raise ValueError("an adjustment needs a reason")
        level = self._level(warehouse, sku)
        if level.on_hand + delta < level.reserved:
            raise InsufficientStockError(sku, -delta, level.on_hand - level.reserved)
        level.on_hand += delta
        self._ledger.record(
            MovementKind.ADJUSTMENT, warehouse, sku, on_hand_delta=delta, reference=reason.strip()
        )
        return level.on_hand

    # -- reservations ---------------------------------------------------------------------

    def reserve(
        self, sku: str, quantity: int, *, reference: str, warehouse: str | None = None
    ) -> list[Reservation]:
        """Reserve ``quantity`` units of ``sku`` for ``reference``.

        With ``warehouse`` given, the stock must come from that warehouse (active or not).
        Otherwise the warehouse is chosen among the active ones by
        :func:`inventory.allocation.plan_allocation`. Returns the reservations made; on
        :class:`InsufficientStockError` nothing is reserved.
        """
        _positive_int(quantity, "quantity")
        if not reference.strip():
            raise ValueError("a reservation needs a reference")
        if warehouse is not None:
            available = self.available(warehouse, sku)
            if available < quantity:
                raise InsufficientStockError(sku, quantity, available)
            plan = [(warehouse, quantity)]
        else:
            candidates = {
                site.code: self.available(site.code, sku)
                for site in self.warehouses(active_only=True)
            }
            plan = plan_allocation(sku, candidates, quantity)
        return [self._reserve_in(code, sku, units, reference) for code, units in plan]

    def _reserve_in(self, warehouse: str, sku: str, quantity: int, reference: str) -> Reservation:
        level = self._level(warehouse, sku)
        level.reserved += quantity
        reservation = Reservation(
            reservation_id=f"R-{len(self._reservations) + 1:06d}",
            reference=reference,
            warehouse=warehouse,
            sku=sku,
            quantity=quantity,
        )
        self._reservations[reservation.reservation_id] = reservation
        self._ledger.record(
            MovementKind.RESERVATION, warehouse, sku, reserved_delta=quantity, reference=reference
        )
        return reservation

    def get_reservation(self, reservation_id: str) -> Reservation:
        """The reservation with this id, or :class:`UnknownReservationError`."""
        try:
            return self._reservations[reservation_id]
        except KeyError:
            raise UnknownReservationError(reservation_id) from None

    def reservations_for(self, reference: str) -> list[Reservation]:
        """Every reservation made for ``reference``, oldest first, whatever its status."""
        return [r for r in self._reservations.values() if r.reference == reference]

    def release(self, reservation_id: str) -> Reservation:
        """Give reserved stock back (order cancelled). Only ACTIVE reservations can be released."""
        reservation = self._active(reservation_id)
        self._level(reservation.warehouse, reservation.sku).reserved -= reservation.quantity
        self._ledger.record(
            MovementKind.RELEASE,
            reservation.warehouse,
            reservation.sku,
            reserved_delta=-reservation.quantity,
            reference=reservation.reference,
        )
        return self._set_status(reservation, ReservationStatus.RELEASED)

    def fulfil(self, reservation_id: str) -> Reservation:
        """The reserved units left the warehouse: both on-hand and reserved go down."""
        reservation = self._active(reservation_id)
        level = self._level(reservation.warehouse, reservation.sku)
        level.reserved -= reservation.quantity
        level.on_hand -= reservation.quantity
        self._ledger.record(
            MovementKind.SHIPMENT,
            reservation.warehouse,
            reservation.sku,
            on_hand_delta=-reservation.quantity,
            reserved_delta=-reservation.quantity,
            reference=reservation.reference,
        )
        return self._set_status(reservation, ReservationStatus.FULFILLED)

    def _active(self, reservation_id: str) -> Reservation:
        reservation = self.get_reservation(reservation_id)
        if reservation.status is not ReservationStatus.ACTIVE:
            raise ReservationStateError(
                f"reservation {reservation_id} is already {reservation.status.value}"
            )
        return reservation

    def _set_status(self, reservation: Reservation, status: ReservationStatus) -> Reservation:
        updated = replace(reservation, status=status)
        self._reservations[reservation.reservation_id] = updated
        return updated

    # -- reporting ------------------------------------------------------------------------

    def movements(
        self, *, sku: str | None = None, warehouse: str | None = None
    ) -> tuple[Movement, ...]:
        """The stock ledger, oldest first, optionally filtered by SKU and/or warehouse."""
        return self._ledger.entries(sku=sku, warehouse=warehouse)

    def stock_report(self) -> list[StockRow]:
        """Every (warehouse, SKU) pair with stock on hand or reserved, by warehouse then SKU."""
        return [
            StockRow(code, sku, level.on_hand, level.reserved, self.available(code, sku))
            for (code, sku), level in sorted(self._levels.items())
            if level.on_hand or level.reserved
        ]

    def check_consistency(self) -> None:
        """Raise :class:`InventoryError` if the counters disagree with the ledger."""
        expected = self._ledger.balances()
        for key, level in self._levels.items():
            if expected.get(key, (0, 0)) != (level.on_hand, level.reserved):
                raise InventoryError(f"stock of {key[1]} in {key[0]} disagrees with the ledger")
