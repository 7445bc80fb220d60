"""Shipping labels and tracking numbers."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from orders import Address, Order, OrderStatus

from .carriers import get_carrier
from .errors import ShippingError
from .rates import Quote

ORIGIN_COUNTRY = "DE"
MAX_SEQUENCE = 99_999_999


def tracking_number(carrier_code: str, sequence: int) -> str:
    """The tracking number of the ``sequence``-th parcel a carrier ships for us.

    Format: the carrier's two-letter prefix, the sequence as 8 digits, the origin country,
    e.g. ``PC00000042DE``. ``sequence`` must be in 1..99,999,999.
    """
    if isinstance(sequence, bool) or not isinstance(sequence, int):
        raise ValueError(f"sequence must be an integer, got {sequence!r}")
    if not 1 <= sequence <= MAX_SEQUENCE:
        raise ValueError(f"sequence must be between 1 and {MAX_SEQUENCE}, got {sequence}")
    prefix = get_carrier(carrier_code).tracking_prefix
    return f"{prefix}{sequence:08d}{ORIGIN_COUNTRY}"


@dataclass(frozen=True)
class Label:
    """Everything printed on a parcel label."""

    tracking_number: str
    carrier: str
    order_id: str
    ship_to: Address
    zone: int
    billable_kg: Decimal


def make_label(order: Order, quote: Quote, sequence: int) -> Label:
    """The label for an ALLOCATED order shipped as quoted; other statuses raise ShippingError."""
    if order.status is not OrderStatus.ALLOCATED:
        raise ShippingError(
            f"order {order.order_id} is {order.status.value}; only allocated orders ship"
        )
    return Label(
        tracking_number=tracking_number(quote.carrier, sequence),
        carrier=quote.carrier,
        order_id=order.order_id,
        ship_to=order.ship_to,
        zone=quote.zone,
        billable_kg=quote.billable_kg,
    )


def render_label(label: Label) -> str:
    """The label as the plain text sent to the label printer."""
    address = label.ship_to
    return "\n".join(
        [
            f"{get_carrier(label.carrier).name}  ZONE {label.zone}",
            f"TRACKING {label.tracking_number}",
            f"ORDER {label.order_id}  {label.billable_kg} KG",
            "",
            address.name,
            address.street,
            f"{address.postcode} {address.city}",
            address.country,
        ]
    )
