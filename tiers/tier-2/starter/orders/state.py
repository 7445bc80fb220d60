"""The order state machine: which status changes are allowed."""

from __future__ import annotations

from .errors import InvalidTransitionError
from .model import Order, OrderStatus

TRANSITIONS: dict[OrderStatus, frozenset[OrderStatus]] = {
    OrderStatus.DRAFT: frozenset({OrderStatus.ALLOCATED, OrderStatus.CANCELLED}),
    OrderStatus.ALLOCATED: frozenset({OrderStatus.SHIPPED, OrderStatus.CANCELLED}),
    OrderStatus.SHIPPED: frozenset(),
    OrderStatus.CANCELLED: frozenset(),
}


def can_transition(current: OrderStatus, target: OrderStatus) -> bool:
    """Whether an order in ``current`` may move to ``target``."""
    return target in TRANSITIONS[current]


def transition(order: Order, target: OrderStatus) -> None:
    """Move ``order`` to ``target`` and record it, or raise :class:`InvalidTransitionError`."""
    if not can_transition(order.status, target):
        raise InvalidTransitionError(
            f"order {order.order_id} cannot go from {order.status.value} to {target.value}"
        )
    order.history.append((order.status, target))
    order.status = target
