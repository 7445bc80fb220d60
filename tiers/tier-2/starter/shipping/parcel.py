"""Weights of what goes into a parcel: actual, volumetric and billable.

Carriers bill the greater of the actual and the volumetric weight. The volumetric weight of a
unit is ``length x width x height / 5000`` (cm -> kg). The billable weight is the greater of
the two totals, rounded up to the next 0.5 kg (``10.0`` stays ``10.0``, ``10.01`` -> ``10.5``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal

from catalog import Catalog, Dimensions, ceil_to_step

from .errors import ShippingError

VOLUMETRIC_DIVISOR = Decimal(5000)
BILLABLE_STEP_KG = Decimal("0.5")


def volumetric_weight(dimensions: Dimensions) -> Decimal:
    """Volumetric weight in kg of one unit (not rounded)."""
    return dimensions.volume_cm3 / VOLUMETRIC_DIVISOR


@dataclass(frozen=True)
class ParcelSummary:
    """What a set of items weighs for shipping purposes."""

    actual_kg: Decimal
    volumetric_kg: Decimal
    billable_kg: Decimal
    longest_side_cm: Decimal
    hazmat_skus: tuple[str, ...]


def summarize(items: Iterable[tuple[str, int]], catalog: Catalog) -> ParcelSummary:
    """Summarise ``(sku, quantity)`` items. No items at all raises :class:`ShippingError`."""
    actual = Decimal(0)
    volumetric = Decimal(0)
    longest = Decimal(0)
    hazmat: set[str] = set()
    count = 0
    for sku, quantity in items:
        product = catalog.get(sku)
        actual += product.weight_kg * quantity
        volumetric += volumetric_weight(product.dimensions) * quantity
        longest = max(longest, product.dimensions.longest_side_cm)
        if product.hazmat:
            hazmat.add(sku)
        count += quantity
    if count == 0:
        raise ShippingError("nothing to ship")
    return ParcelSummary(
        actual_kg=actual,
        volumetric_kg=volumetric,
        billable_kg=ceil_to_step(max(actual, volumetric), BILLABLE_STEP_KG),
        longest_side_cm=longest,
        hazmat_skus=tuple(sorted(hazmat)),
    )
