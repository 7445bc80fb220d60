"""The money ledger: every charge and refund, append-only.

This module is private to :mod:`booking` (see wiring.yaml): other packages
read money figures through :class:`booking.service.BookingService`.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from enum import Enum


class LedgerError(Exception):
    """A ledger entry would make the books inconsistent."""


class EntryKind(str, Enum):
    """Direction of a ledger entry."""

    CHARGE = "charge"
    REFUND = "refund"


@dataclass(frozen=True)
class LedgerEntry:
    """One movement of money for one order."""

    seq: int
    order_id: str
    kind: EntryKind
    amount: Decimal
    currency: str
    at: datetime


class Ledger:
    """Append-only list of charges and refunds."""

    def __init__(self) -> None:
        self._entries: list[LedgerEntry] = []

    def _append(
        self, order_id: str, kind: EntryKind, amount: Decimal, currency: str, at: datetime
    ) -> LedgerEntry:
        entry = LedgerEntry(len(self._entries) + 1, order_id, kind, amount, currency, at)
        self._entries.append(entry)
        return entry

    def record_charge(
        self, order_id: str, amount: Decimal, currency: str, at: datetime
    ) -> LedgerEntry:
        """Record the payment of an order."""
        if amount < 0:
            raise LedgerError("a charge cannot be negative")
        if any(e.order_id == order_id and e.kind is EntryKind.CHARGE for e in self._entries):
            raise LedgerError(f"order {order_id} has been charged already")
        return self._append(order_id, EntryKind.CHARGE, amount, currency, at)

    def record_refund(
        self, order_id: str, amount: Decimal, currency: str, at: datetime
    ) -> LedgerEntry:
        """Record money paid back for an order; never more than was paid."""
        if amount < 0:
            raise LedgerError("a refund cannot be negative")
        if amount > self.net_for(order_id):
            raise LedgerError(f"refund of {amount} exceeds what order {order_id} paid")
        return self._append(order_id, EntryKind.REFUND, amount, currency, at)

    def net_for(self, order_id: str) -> Decimal:
        """Charged minus refunded for one order."""
        net = Decimal(0)
        for entry in self._entries:
            if entry.order_id == order_id:
                net += entry.amount if entry.kind is EntryKind.CHARGE else -entry.amount
        return net

    def entries(self, order_id: str | None = None) -> list[LedgerEntry]:
        """Entries in recording order, optionally for one order."""
        return [e for e in self._entries if order_id is None or e.order_id == order_id]

    def totals_by_currency(self) -> dict[str, Decimal]:
        """Net takings per currency."""
        totals: dict[str, Decimal] = {}
        for e in self._entries:
            sign = 1 if e.kind is EntryKind.CHARGE else -1
            totals[e.currency] = totals.get(e.currency, Decimal(0)) + sign * e.amount
        return totals
