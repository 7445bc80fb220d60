"""Errors raised by the orders package. All of them derive from :class:`OrderError`."""

from __future__ import annotations


class OrderError(Exception):
    """Base class of every order error."""


class UnknownOrderError(OrderError, KeyError):
    """No order with this id exists."""

    def __init__(self, order_id: str) -> None:
        super().__init__(order_id)
        self.order_id = order_id

    def __str__(self) -> str:
        return f"unknown order {self.order_id!r}"


class InvalidTransitionError(OrderError):
    """The order cannot move from its current status to the requested one."""


class EmptyOrderError(OrderError):
    """An order without lines cannot be placed."""


class OrderLineError(OrderError, ValueError):
    """An order line is invalid (quantity out of range, product not sellable, ...)."""


class InvalidCouponError(OrderError, ValueError):
    """A coupon is malformed or cannot be applied to this order."""
