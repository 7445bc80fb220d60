"""The order aggregate: an order, its lines, its shipping address and its coupon."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from decimal import Decimal
from enum import StrEnum

from catalog import to_decimal

from .errors import InvalidCouponError, OrderError, OrderLineError

MAX_LINE_QUANTITY = 9999
MAX_COUPON_PERCENT = Decimal(50)
_COUNTRY = re.compile(r"[A-Z]{2}")
_COUPON_CODE = re.compile(r"[A-Z0-9]{4,16}")


class OrderStatus(StrEnum):
    """Where an order is in its life cycle (see :mod:`orders.state` for the allowed moves)."""

    DRAFT = "draft"  # being edited by the customer
    ALLOCATED = "allocated"  # placed; stock is reserved for every line
    SHIPPED = "shipped"  # left the warehouse
    CANCELLED = "cancelled"  # given up; reserved stock was released


@dataclass(frozen=True)
class Address:
    """A delivery address. ``country`` is an ISO 3166 alpha-2 code such as ``"DE"``."""

    name: str
    street: str
    postcode: str
    city: str
    country: str

    def __post_init__(self) -> None:
        for name in ("name", "street", "postcode", "city"):
            if not getattr(self, name).strip():
                raise ValueError(f"address {name} must not be blank")
        if not _COUNTRY.fullmatch(self.country):
            raise ValueError(f"country must be an ISO alpha-2 code, got {self.country!r}")


@dataclass(frozen=True)
class Coupon:
    """A percentage-off coupon: ``percent_off`` in (0, 50], applicable from ``min_subtotal``."""

    code: str
    percent_off: Decimal
    min_subtotal: Decimal = Decimal("0.00")

    def __post_init__(self) -> None:
        if not _COUPON_CODE.fullmatch(self.code):
            raise InvalidCouponError(f"coupon code must be 4-16 letters/digits, got {self.code!r}")
        percent = to_decimal(self.percent_off, field="percent_off")
        if not Decimal(0) < percent <= MAX_COUPON_PERCENT:
            raise InvalidCouponError(f"coupon {self.code}: percent_off must be in (0, 50]")
        minimum = to_decimal(self.min_subtotal, field="min_subtotal")
        if minimum < 0:
            raise InvalidCouponError(f"coupon {self.code}: min_subtotal must not be negative")
        object.__setattr__(self, "percent_off", percent)
        object.__setattr__(self, "min_subtotal", minimum)


@dataclass
class OrderLine:
    """``quantity`` units of ``sku`` at ``unit_price`` (EUR net, frozen when the line is added)."""

    sku: str
    quantity: int
    unit_price: Decimal

    @property
    def line_total(self) -> Decimal:
        """Quantity times unit price, in EUR."""
        return self.unit_price * self.quantity


def _check_quantity(quantity: int) -> int:
    if isinstance(quantity, bool) or not isinstance(quantity, int):
        raise OrderLineError(f"quantity must be an integer, got {quantity!r}")
    if not 1 <= quantity <= MAX_LINE_QUANTITY:
        raise OrderLineError(f"quantity must be between 1 and {MAX_LINE_QUANTITY}, got {quantity}")
    return quantity


@dataclass
class Order:
    """A customer order.

    There is at most one line per SKU: adding a SKU again increases the existing line.
    ``reservation_ids`` are the inventory reservations made when the order was placed;
    ``history`` records every status change as ``(from, to)``.
    """

    order_id: str
    customer_id: str
    ship_to: Address
    status: OrderStatus = OrderStatus.DRAFT
    lines: list[OrderLine] = field(default_factory=list)
    coupon: Coupon | None = None
    reservation_ids: list[str] = field(default_factory=list)
    history: list[tuple[OrderStatus, OrderStatus]] = field(default_factory=list)

    def line(self, sku: str) -> OrderLine | None:
        """The line for ``sku``, or ``None``."""
        return next((line for line in self.lines if line.sku == sku), None)

    def add_line(self, sku: str, quantity: int, unit_price: Decimal) -> OrderLine:
        """Add ``quantity`` units of ``sku``; only a DRAFT order can be edited.

        If the SKU is already on the order its quantity grows and the original unit price is
        kept. A line can hold at most 9999 units.
        """
        self._require_draft()
        _check_quantity(quantity)
        existing = self.line(sku)
        if existing is None:
            created = OrderLine(sku, quantity, unit_price)
            self.lines.append(created)
            return created
        _check_quantity(existing.quantity + quantity)
        existing.quantity += quantity
        return existing

    def remove_line(self, sku: str) -> OrderLine:
        """Remove the line for ``sku`` from a DRAFT order and return it."""
        self._require_draft()
        existing = self.line(sku)
        if existing is None:
            raise OrderLineError(f"order {self.order_id} has no line for {sku}")
        self.lines.remove(existing)
        return existing

    def items(self) -> list[tuple[str, int]]:
        """``(sku, quantity)`` for every line, in line order."""
        return [(line.sku, line.quantity) for line in self.lines]

    @property
    def unit_count(self) -> int:
        """Total number of units over all lines."""
        return sum(line.quantity for line in self.lines)

    def _require_draft(self) -> None:
        if self.status is not OrderStatus.DRAFT:
            raise OrderError(
                f"order {self.order_id} is {self.status.value} and can no longer be edited"
            )
