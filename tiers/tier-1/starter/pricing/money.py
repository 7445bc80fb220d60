"""Currency-aware rounding and formatting of :class:`~decimal.Decimal` amounts.

Every currency the service sells in is listed in :data:`CURRENCY_EXPONENTS`
with its number of decimal places. Rounding is always *half up* (0.005 USD
rounds to 0.01), the convention of our payment provider.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import ROUND_DOWN, ROUND_HALF_UP, Decimal

from pricing.errors import UnknownCurrencyError

#: Decimal places per ISO 4217 currency code.
CURRENCY_EXPONENTS: dict[str, int] = {
    "USD": 2,
    "EUR": 2,
    "GBP": 2,
    "JPY": 0,
}


def exponent(currency: str) -> int:
    """Decimal places of ``currency``.

    Raises:
        UnknownCurrencyError: the service does not sell in ``currency``.
    """
    try:
        return CURRENCY_EXPONENTS[currency]
    except KeyError:
        raise UnknownCurrencyError(f"unknown currency {currency!r}") from None


def quantum(currency: str) -> Decimal:
    """The smallest amount that can be charged in ``currency`` (``0.01`` for USD)."""
    return Decimal(1).scaleb(-exponent(currency))


def as_decimal(amount: Decimal | int | str) -> Decimal:
    """Convert ``amount`` to ``Decimal``; floats are refused to avoid binary noise."""
    if isinstance(amount, float):
        raise TypeError("use Decimal or str for money, never float")
    if isinstance(amount, bool):
        raise TypeError("a bool is not an amount")
    return amount if isinstance(amount, Decimal) else Decimal(amount)


def quantize(amount: Decimal | int | str, currency: str) -> Decimal:
    """Round ``amount`` half up to the precision of ``currency``."""
    return as_decimal(amount).quantize(quantum(currency), rounding=ROUND_HALF_UP)


def to_minor_units(amount: Decimal | int | str, currency: str) -> int:
    """``amount`` in the currency's minor unit (cents), after rounding."""
    return int(quantize(amount, currency).scaleb(exponent(currency)))


def format_amount(amount: Decimal | int | str, currency: str) -> str:
    """Human-readable amount: ``"USD 1,234.50"``, ``"JPY 12,000"``."""
    places = exponent(currency)
    return f"{currency} {quantize(amount, currency):,.{places}f}"


def allocate(total: Decimal | int | str, weights: Sequence[Decimal | int], currency: str) -> list[Decimal]:
    """Split ``total`` into parts proportional to ``weights``.

    The parts are multiples of the currency's quantum and add up exactly to
    ``total`` (rounded). Leftover quanta go to the parts with the largest
    remainders; ties go to the earlier part. All-zero weights split evenly.

    >>> allocate(Decimal("10.00"), [1, 1, 1], "USD")
    [Decimal('3.34'), Decimal('3.33'), Decimal('3.33')]
    """
    if not weights:
        raise ValueError("allocate needs at least one weight")
    weights = [as_decimal(w) for w in weights]
    if any(w < 0 for w in weights):
        raise ValueError("weights must not be negative")
    if sum(weights) == 0:
        weights = [Decimal(1)] * len(weights)
    step = quantum(currency)
    units = int((quantize(total, currency) / step).to_integral_value(rounding=ROUND_DOWN))
    weight_sum = sum(weights)
    exact = [units * w / weight_sum for w in weights]
    floors = [int(e.to_integral_value(rounding=ROUND_DOWN)) for e in exact]
    leftover = units - sum(floors)
    order = sorted(range(len(weights)), key=lambda i: (-(exact[i] - floors[i]), i))
    for i in order[:leftover]:
        floors[i] += 1
    return [quantize(n * step, currency) for n in floors]
