"""Named rounding modes.

Billing code never relies on the ambient :mod:`decimal` context: every rounding
names its mode.  Proration and internal allocations use banker's rounding
(``half_even``); customer-facing tax amounts use commercial rounding
(``half_up``).
"""

from __future__ import annotations

from decimal import ROUND_DOWN, ROUND_HALF_EVEN, ROUND_HALF_UP, ROUND_UP, Decimal
from typing import TYPE_CHECKING

from money.errors import InvalidAmountError

if TYPE_CHECKING:
    from money.currency import Currency

ROUNDING_MODES: dict[str, str] = {
    "half_even": ROUND_HALF_EVEN,
    "half_up": ROUND_HALF_UP,
    "down": ROUND_DOWN,
    "up": ROUND_UP,
}


def quantize(value: Decimal, currency: Currency, mode: str = "half_even") -> Decimal:
    """Round ``value`` to the minor units of ``currency`` with the named mode."""
    try:
        rounding = ROUNDING_MODES[mode]
    except KeyError:
        known = ", ".join(sorted(ROUNDING_MODES))
        raise InvalidAmountError(f"unknown rounding mode {mode!r}; expected one of {known}") from None
    return value.quantize(currency.quantum, rounding=rounding)
