"""Numeric helpers shared by the whole code base: decimals, money and weight rounding.

Money is always a :class:`~decimal.Decimal` in EUR with two decimal places; weights are
kilograms with at most three decimal places. Floats are accepted only at the edges of the
system and converted through their shortest ``repr``, so ``0.1`` becomes ``Decimal("0.1")``
and not its binary expansion.
"""

from __future__ import annotations

from decimal import ROUND_CEILING, ROUND_HALF_UP, Decimal, InvalidOperation

MONEY_QUANTUM = Decimal("0.01")
WEIGHT_QUANTUM = Decimal("0.001")

Number = Decimal | int | float | str


def to_decimal(value: Number, *, field: str = "value") -> Decimal:
    """Convert ``value`` to a finite :class:`Decimal`.

    Raises :class:`TypeError` for booleans and non-numeric types, :class:`ValueError` for
    strings that are not numbers and for NaN or infinities.
    """
    if isinstance(value, bool):
        raise TypeError(f"{field} must be a number, not bool")
    if isinstance(value, Decimal):
        result = value
    elif isinstance(value, int):
        result = Decimal(value)
    elif isinstance(value, float):
        result = Decimal(repr(value))
    elif isinstance(value, str):
        try:
            result = Decimal(value.strip())
        except InvalidOperation:
            raise ValueError(f"{field} is not a number: {value!r}") from None
    else:
        raise TypeError(f"{field} must be a number, not {type(value).__name__}")
    if not result.is_finite():
        raise ValueError(f"{field} must be finite, got {value!r}")
    return result


def round_money(amount: Number) -> Decimal:
    """Round an amount to cents, halves rounded up (``0.125`` -> ``0.13``)."""
    return to_decimal(amount, field="amount").quantize(MONEY_QUANTUM, rounding=ROUND_HALF_UP)


def round_weight(kg: Number) -> Decimal:
    """Round a weight to grams (three decimals of a kilogram), halves rounded up."""
    return to_decimal(kg, field="weight").quantize(WEIGHT_QUANTUM, rounding=ROUND_HALF_UP)


def ceil_to_step(value: Number, step: Number) -> Decimal:
    """Round ``value`` up to the next multiple of ``step``; a value on a multiple stays put.

    >>> ceil_to_step("29.6", "0.5")
    Decimal('30.0')
    """
    amount = to_decimal(value)
    increment = to_decimal(step, field="step")
    if increment <= 0:
        raise ValueError(f"step must be positive, got {step!r}")
    multiples = (amount / increment).to_integral_value(rounding=ROUND_CEILING)
    return multiples * increment
