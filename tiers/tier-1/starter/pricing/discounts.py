"""Discount codes.

A code takes either a percentage or a fixed amount off the *face value*
subtotal of an order; fees are never discounted. Codes are matched
case-insensitively and ignoring surrounding whitespace.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from enum import Enum

from pricing.errors import (
    DuplicateDiscountCodeError,
    InvalidDiscountCodeError,
    PricingError,
)
from pricing.money import as_decimal, quantize


class DiscountKind(str, Enum):
    """How a code's ``value`` is read."""

    PERCENT = "percent"  # value = percentage off, 0 < value <= 100
    AMOUNT = "amount"  # value = fixed amount off, in ``currency``


def normalize_code(raw: str) -> str:
    """Canonical spelling of a code: stripped and upper-cased."""
    return raw.strip().upper()


@dataclass
class DiscountCode:
    """A discount code and its usage so far.

    Attributes:
        code: the code as customers type it (stored normalised).
        kind: percentage or fixed amount.
        value: percentage (``Decimal("15")`` = 15 %) or amount off.
        currency: currency of a fixed-amount code; ``None`` for percentages.
        valid_from: first moment the code works (inclusive), ``None`` = always.
        valid_until: moment the code stops working (exclusive), ``None`` = never.
        max_uses: how many orders may use it, ``None`` = unlimited.
        event_ids: events the code is limited to, ``None`` = every event.
        uses: orders that used it so far.
    """

    code: str
    kind: DiscountKind
    value: Decimal
    currency: str | None = None
    valid_from: datetime | None = None
    valid_until: datetime | None = None
    max_uses: int | None = None
    event_ids: frozenset[str] | None = None
    uses: int = 0

    def __post_init__(self) -> None:
        self.code = normalize_code(self.code)
        if not self.code:
            raise ValueError("a discount code cannot be empty")
        self.value = as_decimal(self.value)
        if self.kind is DiscountKind.PERCENT:
            if not Decimal(0) < self.value <= Decimal(100):
                raise ValueError(f"{self.code}: percentage must be in (0, 100]")
            if self.currency is not None:
                raise ValueError(f"{self.code}: a percentage code has no currency")
        else:
            if self.value <= 0:
                raise ValueError(f"{self.code}: amount off must be positive")
            if self.currency is None:
                raise ValueError(f"{self.code}: a fixed-amount code needs a currency")
        if self.max_uses is not None and self.max_uses < 1:
            raise ValueError(f"{self.code}: max_uses must be at least 1")

    def check_usable(self, event_id: str, now: datetime) -> None:
        """Raise :class:`InvalidDiscountCodeError` unless usable for ``event_id`` at ``now``."""
        if self.valid_from is not None and now < self.valid_from:
            raise InvalidDiscountCodeError(f"code {self.code} is not valid yet")
        if self.valid_until is not None and now >= self.valid_until:
            raise InvalidDiscountCodeError(f"code {self.code} has expired")
        if self.max_uses is not None and self.uses >= self.max_uses:
            raise InvalidDiscountCodeError(f"code {self.code} has been used up")
        if self.event_ids is not None and event_id not in self.event_ids:
            raise InvalidDiscountCodeError(f"code {self.code} is not valid for this event")


def discount_amount(code: DiscountCode, subtotal: Decimal, currency: str) -> Decimal:
    """Amount ``code`` takes off a face-value ``subtotal`` in ``currency``.

    A percentage is rounded half up to the currency; a fixed amount never
    exceeds the subtotal.

    Raises:
        PricingError: a fixed-amount code in another currency.
    """
    subtotal = as_decimal(subtotal)
    if code.kind is DiscountKind.PERCENT:
        return quantize(subtotal * code.value / Decimal(100), currency)
    if code.currency != currency:
        raise PricingError(f"code {code.code} is in {code.currency}, the order in {currency}")
    return quantize(min(code.value, subtotal), currency)


class DiscountBook:
    """All discount codes of the service."""

    def __init__(self) -> None:
        self._codes: dict[str, DiscountCode] = {}

    def add(self, code: DiscountCode) -> DiscountCode:
        """Register a code.

        Raises:
            DuplicateDiscountCodeError: the normalised code exists already.
        """
        if code.code in self._codes:
            raise DuplicateDiscountCodeError(f"code {code.code} exists already")
        self._codes[code.code] = code
        return code

    def get(self, raw: str) -> DiscountCode:
        """Look a code up by any spelling.

        Raises:
            InvalidDiscountCodeError: no such code.
        """
        try:
            return self._codes[normalize_code(raw)]
        except KeyError:
            raise InvalidDiscountCodeError(f"unknown discount code {raw!r}") from None

    def validate(self, raw: str, event_id: str, now: datetime) -> DiscountCode:
        """The code, if it can be used for ``event_id`` at ``now``."""
        code = self.get(raw)
        code.check_usable(event_id, now)
        return code

    def redeem(self, raw: str, event_id: str, now: datetime) -> DiscountCode:
        """Validate the code and count one use."""
        code = self.validate(raw, event_id, now)
        code.uses += 1
        return code
