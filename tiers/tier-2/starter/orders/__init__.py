"""Customer orders: order lines, totals and the order life cycle.

``orders`` may use the catalogue (prices, active products) and the inventory (reservations).
"""

from .errors import (
    EmptyOrderError,
    InvalidCouponError,
    InvalidTransitionError,
    OrderError,
    OrderLineError,
    UnknownOrderError,
)
from .model import Address, Coupon, Order, OrderLine, OrderStatus
from .pricing import VAT_RATES, PriceBreakdown, price_order, vat_rate_for
from .service import OrderService
from .state import can_transition, transition

__all__ = [
    "VAT_RATES",
    "Address",
    "Coupon",
    "EmptyOrderError",
    "InvalidCouponError",
    "InvalidTransitionError",
    "Order",
    "OrderError",
    "OrderLine",
    "OrderLineError",
    "OrderService",
    "OrderStatus",
    "PriceBreakdown",
    "UnknownOrderError",
    "can_transition",
    "price_order",
    "transition",
    "vat_rate_for",
]
