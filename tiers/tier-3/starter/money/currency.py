"""Supported currencies and their rules."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from money.errors import UnknownCurrencyError


@dataclass(frozen=True)
class Currency:
    """An ISO 4217 currency as the platform bills in it.

    ``minor_units`` is the number of decimal places amounts are kept to
    (2 for cents); ``symbol`` is used when amounts are shown to customers.
    """

    code: str
    minor_units: int
    symbol: str
    name: str

    @property
    def quantum(self) -> Decimal:
        """The smallest amount of this currency, e.g. ``Decimal("0.01")``."""
        return Decimal(1).scaleb(-self.minor_units)

    def __str__(self) -> str:
        return self.code


_REGISTRY: dict[str, Currency] = {
    currency.code: currency
    for currency in (
        Currency("USD", 2, "$", "US dollar"),
        Currency("EUR", 2, "\u20ac", "Euro"),
        Currency("GBP", 2, "\u00a3", "Pound sterling"),
    )
}


def get_currency(code: str) -> Currency:
    """Look a currency up by its upper-case ISO code.

    Raises :class:`UnknownCurrencyError` for anything the platform does not bill in.
    """
    if not isinstance(code, str) or code not in _REGISTRY:
        known = ", ".join(sorted(_REGISTRY))
        raise UnknownCurrencyError(f"unsupported currency {code!r}; supported: {known}")
    return _REGISTRY[code]


def supported_currencies() -> tuple[str, ...]:
    """The codes of every supported currency, sorted."""
    return tuple(sorted(_REGISTRY))
