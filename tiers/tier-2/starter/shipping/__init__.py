"""Shipping: parcel weights, carrier rate cards, quotes, labels and re-weigh adjustments.

``shipping`` may use the catalogue (weights, dimensions, hazmat flags) and orders (what to
ship, where to). It has no access to the inventory.
"""

from .carriers import CARRIERS, Carrier, RateBand, get_carrier
from .errors import HazmatRefusedError, NoRateError, ShippingError, UnknownCarrierError
from .labels import Label, make_label, render_label, tracking_number
from .parcel import ParcelSummary, summarize, volumetric_weight
from .rates import Quote, cheapest_quote, quote_items, quote_order
from .reweigh import parse_reported_weight, reweigh_adjustment
from .zones import zone_for

__all__ = [
    "CARRIERS",
    "Carrier",
    "HazmatRefusedError",
    "Label",
    "NoRateError",
    "ParcelSummary",
    "Quote",
    "RateBand",
    "ShippingError",
    "UnknownCarrierError",
    "cheapest_quote",
    "get_carrier",
    "make_label",
    "parse_reported_weight",
    "quote_items",
    "quote_order",
    "render_label",
    "reweigh_adjustment",
    "summarize",
    "tracking_number",
    "volumetric_weight",
    "zone_for",
]
