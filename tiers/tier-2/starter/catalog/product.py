"""Products and their physical dimensions."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from decimal import Decimal
from typing import Any

from .errors import InvalidProductError, InvalidSkuError
from .units import MONEY_QUANTUM, Number, to_decimal

SKU_PATTERN = re.compile(r"[A-Z]{3}-[0-9]{4,6}")
MAX_NAME_LENGTH = 120
MAX_SIDE_CM = Decimal(400)
MAX_WEIGHT_KG = Decimal(1000)


def validate_sku(sku: str) -> str:
    """Return ``sku`` if it is a valid SKU code, else raise :class:`InvalidSkuError`.

    A SKU is three upper-case letters, a dash and four to six digits, e.g. ``"BOX-0042"``.
    """
    if not isinstance(sku, str) or not SKU_PATTERN.fullmatch(sku):
        raise InvalidSkuError(f"invalid SKU {sku!r}: expected three letters, '-', 4-6 digits")
    return sku


def _positive(value: Number, field: str, maximum: Decimal) -> Decimal:
    try:
        amount = to_decimal(value, field=field)
    except (TypeError, ValueError) as exc:
        raise InvalidProductError(str(exc)) from None
    if amount <= 0:
        raise InvalidProductError(f"{field} must be positive, got {value!r}")
    if amount > maximum:
        raise InvalidProductError(f"{field} must be at most {maximum}, got {value!r}")
    return amount


@dataclass(frozen=True)
class Dimensions:
    """Outer dimensions of one packed unit, in centimetres (each side 0 < side <= 400)."""

    length_cm: Decimal
    width_cm: Decimal
    height_cm: Decimal

    def __post_init__(self) -> None:
        for name in ("length_cm", "width_cm", "height_cm"):
            object.__setattr__(self, name, _positive(getattr(self, name), name, MAX_SIDE_CM))

    @property
    def volume_cm3(self) -> Decimal:
        """Volume of the unit in cubic centimetres."""
        return self.length_cm * self.width_cm * self.height_cm

    @property
    def longest_side_cm(self) -> Decimal:
        """The longest of the three sides."""
        return max(self.length_cm, self.width_cm, self.height_cm)


@dataclass(frozen=True)
class Product:
    """A sellable item, identified by its SKU.

    ``unit_price`` is the EUR net price with at most two decimals, ``weight_kg`` the gross
    weight of one packed unit (0 < weight <= 1000). ``hazmat`` marks dangerous goods (e.g.
    lithium batteries), which some carriers refuse. Discontinued products stay in the catalogue
    with ``active=False`` so that old orders still resolve.
    """

    sku: str
    name: str
    unit_price: Decimal
    weight_kg: Decimal
    dimensions: Dimensions
    hazmat: bool = False
    active: bool = True

    def __post_init__(self) -> None:
        validate_sku(self.sku)
        name = self.name.strip() if isinstance(self.name, str) else ""
        if not name:
            raise InvalidProductError(f"product {self.sku}: name must not be blank")
        if len(name) > MAX_NAME_LENGTH:
            raise InvalidProductError(
                f"product {self.sku}: name longer than {MAX_NAME_LENGTH} characters"
            )
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "unit_price", _price(self.unit_price, self.sku))
        object.__setattr__(self, "weight_kg", _positive(self.weight_kg, "weight_kg", MAX_WEIGHT_KG))
        if not isinstance(self.dimensions, Dimensions):
            raise InvalidProductError(f"product {self.sku}: dimensions must be a Dimensions")

    def with_changes(self, **changes: Any) -> Product:
        """Return a copy with some attributes replaced (validated again)."""
        return replace(self, **changes)


def _price(value: Number, sku: str) -> Decimal:
    try:
        price = to_decimal(value, field="unit_price")
    except (TypeError, ValueError) as exc:
        raise InvalidProductError(f"product {sku}: {exc}") from None
    if price < 0:
        raise InvalidProductError(f"product {sku}: unit_price must not be negative")
    if price != price.quantize(MONEY_QUANTUM):
        raise InvalidProductError(f"product {sku}: unit_price has more than two decimals")
    return price
