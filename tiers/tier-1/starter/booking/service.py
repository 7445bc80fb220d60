"""The booking service: holds, checkout and cancellation for all events."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta
from decimal import Decimal

from booking.allocation import best_available
from booking.errors import EventNotOnSaleError, OrderStateError
from booking.holds import DEFAULT_HOLD_TTL, Hold, HoldManager
from booking.ledger import Ledger
from booking.orders import Order, OrderBook, OrderStatus, normalize_email
from booking.refunds import refund_amount
from events import Event, Schedule, SeatMap
from events.schedule import require_aware
from pricing import DiscountBook, PriceTable, Quote, build_quote


class BookingService:
    """Sells the seats of the events of a :class:`events.Schedule`.

    Args:
        schedule: the events on sale.
        price_tables: one price table per event id.
        discounts: the discount codes customers may use.
        hold_ttl: how long a hold lasts.
    """

    def __init__(
        self,
        schedule: Schedule,
        price_tables: Mapping[str, PriceTable],
        *,
        discounts: DiscountBook | None = None,
        hold_ttl: timedelta = DEFAULT_HOLD_TTL,
    ) -> None:
        self.schedule = schedule
        self.price_tables = dict(price_tables)
        self.discounts = discounts if discounts is not None else DiscountBook()
        self.holds = HoldManager(hold_ttl)
        self.orders = OrderBook()
        self._ledger = Ledger()
        self._seatmaps: dict[str, SeatMap] = {}

    def seatmap(self, event_id: str) -> SeatMap:
        """The seat map of an event (created on first use)."""
        if event_id not in self._seatmaps:
            self._seatmaps[event_id] = SeatMap(self.schedule.get(event_id).venue)
        return self._seatmaps[event_id]

    def _on_sale(self, event_id: str, now: datetime) -> Event:
        require_aware(now, "now")
        event = self.schedule.get(event_id)
        if not event.is_on_sale(now):
            raise EventNotOnSaleError(f"event {event_id} is not on sale")
        return event

    def hold_seats(self, event_id: str, seats: Sequence[str], now: datetime) -> Hold:
        """Hold specific seats for checkout.

        Raises:
            EventNotOnSaleError: the event is not on sale at ``now``.
            SeatUnavailableError: a seat is taken; nothing is held.
        """
        self._on_sale(event_id, now)
        self.holds.expire_due(now)
        return self.holds.place(event_id, self.seatmap(event_id), seats, now)

    def hold_best_available(
        self, event_id: str, section_code: str, count: int, now: datetime
    ) -> Hold:
        """Hold the best ``count`` adjacent seats of a section."""
        self._on_sale(event_id, now)
        self.holds.expire_due(now)
        seats = best_available(self.seatmap(event_id), section_code, count)
        return self.holds.place(event_id, self.seatmap(event_id), seats, now)

    def quote(self, hold_id: str, now: datetime, discount_code: str | None = None) -> Quote:
        """Price a hold, optionally with a discount code (not redeemed)."""
        hold = self.holds.get(hold_id)
        code = None
        if discount_code is not None:
            code = self.discounts.validate(discount_code, hold.event_id, now)
        return build_quote(self.price_tables[hold.event_id], hold.seats, discount=code)

    def checkout(
        self,
        hold_id: str,
        email: str,
        now: datetime,
        discount_code: str | None = None,
    ) -> Order:
        """Turn a live hold into a confirmed, paid order.

        Raises:
            ValueError: the e-mail address is not plausible.
            UnknownHoldError / HoldExpiredError: the hold is gone.
            InvalidDiscountCodeError: the code cannot be used.
        """
        require_aware(now, "now")
        customer = normalize_email(email)
        if "@" not in customer.strip("@"):
            raise ValueError(f"not an e-mail address: {email!r}")
        quote = self.quote(hold_id, now, discount_code)
        hold, seatmap = self.holds.consume(hold_id, now)
        if discount_code is not None:
            self.discounts.redeem(discount_code, hold.event_id, now)
        seatmap.sell(hold.seats)
        order = Order(
            order_id=self.orders.next_id(),
            event_id=hold.event_id,
            customer_email=customer,
            currency=quote.currency,
            lines=quote.lines,
            created_at=now,
            discount_code=quote.discount_code,
        )
        self.orders.add(order)
        self._ledger.record_charge(order.order_id, order.total, order.currency, now)
        return order

    def cancel_order(self, order_id: str, now: datetime) -> Decimal:
        """Cancel an order at the customer's request; returns the refund.

        The seats go back on sale and the refund is recorded in the ledger.

        Raises:
            UnknownOrderError: no such order.
            OrderStateError: the order is already cancelled.
        """
        order = self.orders.get(order_id)
        if order.status is OrderStatus.CANCELLED:
            raise OrderStateError(f"order {order_id} is already cancelled")
        event = self.schedule.get(order.event_id)
        amount = refund_amount(order, event, now)
        order.status = OrderStatus.CANCELLED
        order.refunded = amount
        self.seatmap(order.event_id).release(order.seats)
        self._ledger.record_refund(order_id, amount, order.currency, now)
        return amount

    def net_paid(self, order_id: str) -> Decimal:
        """What an order has paid after refunds, from the ledger."""
        self.orders.get(order_id)
        return self._ledger.net_for(order_id)

    def takings(self) -> dict[str, Decimal]:
        """Net takings per currency across all orders."""
        return self._ledger.totals_by_currency()
