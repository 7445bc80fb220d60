"""Holds, orders, seat allocation and cancellations.

:class:`booking.service.BookingService` is the entry point used by the web
layer; the other modules hold the pieces it is built from.
"""

from booking.allocation import best_available
from booking.errors import (
    AllocationError, BookingError, EventNotOnSaleError, HoldExpiredError,
    NoContiguousSeatsError, OrderStateError, SeatUnavailableError, UnknownHoldError,
    UnknownOrderError,
)
from booking.holds import DEFAULT_HOLD_TTL, Hold, HoldManager
from booking.orders import Order, OrderBook, OrderStatus
from booking.refunds import refund_amount
from booking.service import BookingService

__all__ = [
    "DEFAULT_HOLD_TTL", "AllocationError", "BookingError", "BookingService",
    "EventNotOnSaleError", "Hold", "HoldExpiredError", "HoldManager",
    "NoContiguousSeatsError", "Order", "OrderBook", "OrderStateError", "OrderStatus",
    "SeatUnavailableError", "UnknownHoldError", "UnknownOrderError", "best_available",
    "refund_amount",
]
