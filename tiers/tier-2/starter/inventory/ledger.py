"""The append-only stock ledger. Private to the ``inventory`` package.

Every change to a stock counter goes through :meth:`Ledger.record`, so the ledger can always
recompute the counters from scratch (:meth:`Ledger.balances`) and the inventory can prove it
did not lose track of anything.
"""

from __future__ import annotations

from collections import defaultdict

from .movements import Movement, MovementKind


class Ledger:
    """Append-only list of :class:`Movement` entries."""

    def __init__(self) -> None:
        self._entries: list[Movement] = []

    def record(
        self,
        kind: MovementKind,
        warehouse: str,
        sku: str,
        *,
        on_hand_delta: int = 0,
        reserved_delta: int = 0,
        reference: str = "",
    ) -> Movement:
        """Append a movement and return it."""
        movement = Movement(
            seq=len(self._entries) + 1,
            kind=kind,
            warehouse=warehouse,
            sku=sku,
            on_hand_delta=on_hand_delta,
            reserved_delta=reserved_delta,
            reference=reference,
        )
        self._entries.append(movement)
        return movement

    def entries(
        self, *, sku: str | None = None, warehouse: str | None = None
    ) -> tuple[Movement, ...]:
        """Movements in the order they happened, optionally filtered."""
        return tuple(
            entry
            for entry in self._entries
            if (sku is None or entry.sku == sku)
            and (warehouse is None or entry.warehouse == warehouse)
        )

    def balances(self) -> dict[tuple[str, str], tuple[int, int]]:
        """``(warehouse, sku) -> (on_hand, reserved)`` recomputed from every movement."""
        totals: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0])
        for entry in self._entries:
            pair = totals[(entry.warehouse, entry.sku)]
            pair[0] += entry.on_hand_delta
            pair[1] += entry.reserved_delta
        return {key: (value[0], value[1]) for key, value in totals.items()}

    def __len__(self) -> int:
        return len(self._entries)
