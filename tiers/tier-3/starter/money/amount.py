"""The :class:`Money` value type."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from money.currency import Currency, get_currency
from money.errors import CurrencyMismatchError, InvalidAmountError
from money.rounding import quantize

AmountLike = Decimal | int | str


def to_decimal(value: AmountLike) -> Decimal:
    """Convert an amount given as Decimal, int or numeric string to a finite Decimal.

    Floats are refused on purpose: ``0.1 + 0.2`` has no place in an invoice.
    """
    if isinstance(value, bool) or not isinstance(value, Decimal | int | str):
        raise InvalidAmountError(
            f"amounts must be Decimal, int or str, not {type(value).__name__}"
        )
    if isinstance(value, str):
        try:
            result = Decimal(value.strip())
        except InvalidOperation:
            raise InvalidAmountError(f"not a number: {value!r}") from None
    else:
        result = Decimal(value)
    if not result.is_finite():
        raise InvalidAmountError(f"amounts must be finite, got {value!r}")
    return result


@dataclass(frozen=True)
class Money:
    """An exact amount in one currency.

    ``Money("12.5", "USD")`` is stored as ``12.50 USD``.  An amount with more
    decimal places than the currency allows raises :class:`InvalidAmountError`
    instead of being rounded silently; use :meth:`multiply` or :meth:`fraction`
    to get a rounded result.
    """

    amount: Decimal
    currency: Currency

    def __post_init__(self) -> None:
        currency = self.currency
        if isinstance(currency, str):
            currency = get_currency(currency)
            object.__setattr__(self, "currency", currency)
        elif not isinstance(currency, Currency):
            raise TypeError(f"currency must be a Currency or a code, not {type(currency).__name__}")
        amount = to_decimal(self.amount)
        try:
            exact = amount.quantize(currency.quantum)
        except InvalidOperation:
            raise InvalidAmountError(f"amount {amount} is out of range") from None
        if exact != amount:
            raise InvalidAmountError(
                f"{amount} has more than {currency.minor_units} decimal places for {currency.code}"
            )
        if exact.is_zero():
            exact = exact.copy_abs()  # never show "-0.00"
        object.__setattr__(self, "amount", exact)

    # -- construction -------------------------------------------------------

    @classmethod
    def of(cls, amount: AmountLike, currency: str | Currency) -> Money:
        """``Money.of("19.99", "EUR")``: the usual way to build an amount."""
        return cls(amount, currency)  # type: ignore[arg-type]

    @classmethod
    def zero(cls, currency: str | Currency) -> Money:
        """Zero in ``currency``."""
        return cls(Decimal(0), currency)  # type: ignore[arg-type]

    # -- arithmetic ---------------------------------------------------------

    def _same_currency(self, other: object, operation: str) -> Money:
        if not isinstance(other, Money):
            raise TypeError(f"cannot {operation} Money and {type(other).__name__}")
        if other.currency != self.currency:
            raise CurrencyMismatchError(
                f"cannot {operation} {self.currency.code} and {other.currency.code}"
            )
        return other

    def __add__(self, other: object) -> Money:
        other = self._same_currency(other, "add")
        return Money(self.amount + other.amount, self.currency)

    def __sub__(self, other: object) -> Money:
        other = self._same_currency(other, "subtract")
        return Money(self.amount - other.amount, self.currency)

    def __neg__(self) -> Money:
        return Money(-self.amount, self.currency)

    def __abs__(self) -> Money:
        return Money(abs(self.amount), self.currency)

    def __mul__(self, factor: object) -> Money:
        # Only whole quantities multiply exactly; rates go through multiply().
        if isinstance(factor, bool) or not isinstance(factor, int):
            return NotImplemented
        return Money(self.amount * factor, self.currency)

    __rmul__ = __mul__

    def multiply(self, factor: AmountLike, mode: str = "half_even") -> Money:
        """Multiply by a rate (e.g. a tax rate) and round once with ``mode``."""
        product = self.amount * to_decimal(factor)
        return Money(quantize(product, self.currency, mode), self.currency)

    def fraction(self, numerator: int, denominator: int, mode: str = "half_even") -> Money:
        """``self × numerator / denominator``, rounded once with ``mode``.

        Used for day-based proration: ``price.fraction(unused_days, period_days)``.
        """
        if isinstance(numerator, bool) or not isinstance(numerator, int):
            raise InvalidAmountError("numerator must be an int")
        if isinstance(denominator, bool) or not isinstance(denominator, int) or denominator <= 0:
            raise InvalidAmountError("denominator must be a positive int")
        exact = self.amount * Decimal(numerator) / Decimal(denominator)
        return Money(quantize(exact, self.currency, mode), self.currency)

    # -- comparison ---------------------------------------------------------

    def __lt__(self, other: object) -> bool:
        return self.amount < self._same_currency(other, "compare").amount

    def __le__(self, other: object) -> bool:
        return self.amount <= self._same_currency(other, "compare").amount

    def __gt__(self, other: object) -> bool:
        return self.amount > self._same_currency(other, "compare").amount

    def __ge__(self, other: object) -> bool:
        return self.amount >= self._same_currency(other, "compare").amount

    def is_zero(self) -> bool:
        return self.amount.is_zero()

    def is_positive(self) -> bool:
        return self.amount > 0

    def is_negative(self) -> bool:
        return self.amount < 0

    # -- presentation -------------------------------------------------------

    def format(self) -> str:
        """The amount as customers see it: ``"$1,234.50"``, ``"-\u20ac3.00"``."""
        sign = "-" if self.amount < 0 else ""
        return f"{sign}{self.currency.symbol}{abs(self.amount):,.2f}"

    def __str__(self) -> str:
        return f"{self.amount} {self.currency.code}"


def sum_money(amounts: Iterable[Money], currency: str | Currency) -> Money:
    """Add up ``amounts`` (all in ``currency``); an empty iterable sums to zero."""
    total = Money.zero(currency)
    for amount in amounts:
        total = total + amount
    return total
