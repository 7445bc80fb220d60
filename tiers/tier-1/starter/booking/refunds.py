"""How much a customer gets back when an order is cancelled.

The refund policy depends on who cancels and how close to the event the
cancellation happens. See TASK.md for the rules.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from decimal import Decimal

from booking.orders import Order
from events import Event

#: Cancelling at least this long before the start refunds the tickets in full.
FULL_REFUND_NOTICE = timedelta(days=7)

#: Cancelling at least this long (but under a week) before the start refunds half.
PARTIAL_REFUND_NOTICE = timedelta(hours=48)

#: Share of the paid face value refunded in the partial window.
PARTIAL_REFUND_RATE = Decimal("0.50")


def refund_amount(order: Order, event: Event, cancelled_at: datetime) -> Decimal:
    """The amount to refund when ``order`` is cancelled at ``cancelled_at``.

    See TASK.md for the rules.
    """
    raise NotImplementedError("refund_amount: see TASK.md")
