"""Stock movements: the audit trail of every change to stock."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class MovementKind(StrEnum):
    """What happened to the stock."""

    RECEIPT = "receipt"  # goods in from a supplier
    ADJUSTMENT = "adjustment"  # stock count correction, damage, loss
    RESERVATION = "reservation"  # stock set aside for an order
    RELEASE = "release"  # a reservation was given back
    SHIPMENT = "shipment"  # reserved stock left the building


@dataclass(frozen=True)
class Movement:
    """One entry of the stock ledger.

    ``on_hand_delta`` and ``reserved_delta`` are the signed changes to the two counters of the
    (warehouse, SKU) pair; ``seq`` numbers the movements of one inventory from 1.
    """

    seq: int
    kind: MovementKind
    warehouse: str
    sku: str
    on_hand_delta: int
    reserved_delta: int
    reference: str = ""
