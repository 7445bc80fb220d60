"""Plans and add-ons."""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum

from money import Currency, Money
from plans.errors import InvalidPlanError, QuantityError

CODE_PATTERN = re.compile(r"^[a-z][a-z0-9_-]{1,31}$")
MAX_TRIAL_DAYS = 90


def validate_code(code: object, what: str) -> str:
    """Plan and add-on codes: 2-32 chars, lower-case letters, digits, '-' and '_'."""
    if not isinstance(code, str) or not CODE_PATTERN.match(code):
        raise InvalidPlanError(f"invalid {what} code {code!r}")
    return code


class Interval(str, Enum):
    """How often a plan is billed."""

    MONTH = "month"
    YEAR = "year"

    @property
    def months(self) -> int:
        return 1 if self is Interval.MONTH else 12


@dataclass(frozen=True)
class Plan:
    """A subscription plan: a recurring price billed in advance each interval.

    ``trial_days`` (0-90) delays the first billing period: a subscription that
    starts on day D is first billed for the period starting on D + trial_days.
    """

    code: str
    name: str
    price: Money
    interval: Interval = Interval.MONTH
    trial_days: int = 0

    def __post_init__(self) -> None:
        validate_code(self.code, "plan")
        if not isinstance(self.name, str) or not self.name.strip():
            raise InvalidPlanError("a plan needs a name")
        if not isinstance(self.price, Money) or not self.price.is_positive():
            raise InvalidPlanError(f"plan {self.code}: the price must be a positive Money")
        try:
            object.__setattr__(self, "interval", Interval(self.interval))
        except ValueError:
            raise InvalidPlanError(f"plan {self.code}: unknown interval {self.interval!r}") from None
        trial = self.trial_days
        if isinstance(trial, bool) or not isinstance(trial, int) or not 0 <= trial <= MAX_TRIAL_DAYS:
            raise InvalidPlanError(
                f"plan {self.code}: trial_days must be a whole number from 0 to {MAX_TRIAL_DAYS}"
            )

    @property
    def currency(self) -> Currency:
        return self.price.currency


@dataclass(frozen=True)
class AddOn:
    """Something billed per unit on top of a plan, e.g. extra seats.

    ``max_quantity`` caps how many units one subscription may hold (None: no cap).
    """

    code: str
    name: str
    unit_price: Money
    max_quantity: int | None = None

    def __post_init__(self) -> None:
        validate_code(self.code, "add-on")
        if not isinstance(self.name, str) or not self.name.strip():
            raise InvalidPlanError("an add-on needs a name")
        if not isinstance(self.unit_price, Money) or not self.unit_price.is_positive():
            raise InvalidPlanError(f"add-on {self.code}: the unit price must be a positive Money")
        cap = self.max_quantity
        if cap is not None and (isinstance(cap, bool) or not isinstance(cap, int) or cap < 1):
            raise InvalidPlanError(f"add-on {self.code}: max_quantity must be None or at least 1")

    @property
    def currency(self) -> Currency:
        return self.unit_price.currency

    def validate_quantity(self, quantity: object) -> int:
        """Return ``quantity`` if it is a whole number within this add-on's limits."""
        if isinstance(quantity, bool) or not isinstance(quantity, int) or quantity < 0:
            raise QuantityError(f"add-on {self.code}: quantity must be a whole number >= 0")
        if self.max_quantity is not None and quantity > self.max_quantity:
            raise QuantityError(
                f"add-on {self.code}: at most {self.max_quantity} units, got {quantity}"
            )
        return quantity

    def price_for(self, quantity: int) -> Money:
        """The price of ``quantity`` units for one billing period."""
        quantity = self.validate_quantity(quantity)
        return self.unit_price * quantity
