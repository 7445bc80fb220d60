"""Invoice numbers.

Private to ``invoicing``: numbers are legal identifiers that must be gap-free
and never reused, so only :class:`invoicing.InvoiceGenerator` draws them, at the
moment an invoice is issued.
"""

from __future__ import annotations

from datetime import date


class InvoiceNumberer:
    """Hands out ``INV-000001``, ``INV-000002``, ... in issue order."""

    prefix = "INV"

    def __init__(self) -> None:
        self._next = 1

    def next_number(self, issued_on: date) -> str:
        """The number for an invoice issued on ``issued_on``."""
        number = f"{self.prefix}-{self._next:06d}"
        self._next += 1
        return number
