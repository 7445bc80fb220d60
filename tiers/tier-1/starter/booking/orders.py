"""Orders: what a customer bought.

An order is created at checkout from a :class:`pricing.Quote` and is
immutable apart from its status and the refunded amount. Order ids are
``"O0001"``, ``"O0002"``... in creation order.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from enum import Enum

from booking.errors import UnknownOrderError
from pricing import QuoteLine, quantize


class OrderStatus(str, Enum):
    """Lifecycle status of an order."""

    CONFIRMED = "confirmed"
    CANCELLED = "cancelled"


def normalize_email(email: str) -> str:
    """Customers are identified by e-mail, compared case-insensitively."""
    return email.strip().lower()


@dataclass
class Order:
    """A confirmed purchase of seats for one event.

    Attributes:
        order_id: ``"O0001"``...
        event_id: the event.
        customer_email: normalised e-mail address of the buyer.
        currency: currency of every amount of the order.
        lines: one priced line per seat.
        created_at: checkout time.
        discount_code: the code used, if any.
        status: lifecycle status.
        refunded: total refunded so far.
    """

    order_id: str
    event_id: str
    customer_email: str
    currency: str
    lines: tuple[QuoteLine, ...]
    created_at: datetime
    discount_code: str | None = None
    status: OrderStatus = OrderStatus.CONFIRMED
    refunded: Decimal = Decimal(0)

    @property
    def seats(self) -> tuple[str, ...]:
        """Seat labels of the order."""
        return tuple(line.seat for line in self.lines)

    @property
    def ticket_count(self) -> int:
        """Number of tickets."""
        return len(self.lines)

    def _sum(self, values: Iterator[Decimal]) -> Decimal:
        return sum(values, quantize(0, self.currency))

    @property
    def face_total(self) -> Decimal:
        """Face values before discount."""
        return self._sum(line.face_value for line in self.lines)

    @property
    def discount_total(self) -> Decimal:
        """Discount over all lines."""
        return self._sum(line.discount for line in self.lines)

    @property
    def service_fee_total(self) -> Decimal:
        """Service fees over all lines."""
        return self._sum(line.service_fee for line in self.lines)

    @property
    def facility_fee_total(self) -> Decimal:
        """Facility fees over all lines."""
        return self._sum(line.facility_fee for line in self.lines)

    @property
    def total(self) -> Decimal:
        """What the customer paid."""
        return (
            self.face_total
            - self.discount_total
            + self.service_fee_total
            + self.facility_fee_total
        )


class OrderBook:
    """All orders, by id."""

    def __init__(self) -> None:
        self._orders: dict[str, Order] = {}

    def __len__(self) -> int:
        return len(self._orders)

    def next_id(self) -> str:
        """The id the next order will get."""
        return f"O{len(self._orders) + 1:04d}"

    def add(self, order: Order) -> Order:
        """Store a new order."""
        if order.order_id in self._orders:
            raise ValueError(f"order {order.order_id} exists already")
        self._orders[order.order_id] = order
        return order

    def get(self, order_id: str) -> Order:
        """The order ``order_id``.

        Raises:
            UnknownOrderError: no such order.
        """
        try:
            return self._orders[order_id]
        except KeyError:
            raise UnknownOrderError(f"no order {order_id!r}") from None

    def for_customer(self, email: str, event_id: str | None = None) -> list[Order]:
        """Orders of a customer, oldest first, optionally for one event."""
        key = normalize_email(email)
        return [
            order
            for order in self._orders.values()
            if order.customer_email == key and (event_id is None or order.event_id == event_id)
        ]
