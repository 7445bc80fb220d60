"""Shipping quotes from the carriers' rate cards."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal

from catalog import Catalog
from orders import Order

from .carriers import CARRIERS, get_carrier
from .errors import HazmatRefusedError, NoRateError, ShippingError
from .parcel import summarize
from .zones import zone_for


@dataclass(frozen=True)
class Quote:
    """The price of shipping something with one carrier to one zone."""

    carrier: str
    zone: int
    billable_kg: Decimal
    price: Decimal


def quote_items(
    items: Iterable[tuple[str, int]], catalog: Catalog, country: str, carrier_code: str
) -> Quote:
    """Quote ``(sku, quantity)`` items shipped as one parcel to ``country`` with a carrier.

    Raises :class:`HazmatRefusedError` if the carrier refuses dangerous goods in the parcel,
    :class:`NoRateError` if a unit is longer than the carrier accepts or the billable weight
    is above the carrier's heaviest band for the zone.
    """
    summary = summarize(items, catalog)
    zone = zone_for(country)
    carrier = get_carrier(carrier_code)
    if summary.hazmat_skus and not carrier.accepts_hazmat:
        raise HazmatRefusedError(carrier.code, list(summary.hazmat_skus))
    if summary.longest_side_cm > carrier.max_side_cm:
        raise NoRateError(
            f"{carrier.code} accepts sides up to {carrier.max_side_cm} cm, "
            f"got {summary.longest_side_cm} cm"
        )
    price = carrier.price_for(zone, summary.billable_kg)
    if price is None:
        raise NoRateError(
            f"{carrier.code} has no rate for {summary.billable_kg} kg to zone {zone} "
            f"(maximum {carrier.max_weight_kg(zone)} kg)"
        )
    return Quote(carrier=carrier.code, zone=zone, billable_kg=summary.billable_kg, price=price)


def quote_order(order: Order, catalog: Catalog, carrier_code: str) -> Quote:
    """Quote a whole order shipped as one parcel to its delivery address."""
    if not order.lines:
        raise ShippingError(f"order {order.order_id} has no lines")
    return quote_items(order.items(), catalog, order.ship_to.country, carrier_code)


def cheapest_quote(order: Order, catalog: Catalog) -> Quote:
    """The cheapest quote over all carriers; ties go to the alphabetically first carrier.

    Carriers that cannot take the order are skipped; if none can, :class:`NoRateError`.
    """
    quotes: list[Quote] = []
    for code in sorted(CARRIERS):
        try:
            quotes.append(quote_order(order, catalog, code))
        except (NoRateError, HazmatRefusedError):
            continue
    if not quotes:
        raise NoRateError(f"no carrier can ship order {order.order_id}")
    return min(quotes, key=lambda quote: (quote.price, quote.carrier))
