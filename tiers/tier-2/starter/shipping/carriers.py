"""Parcel carriers and their rate cards."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal

from .errors import UnknownCarrierError


@dataclass(frozen=True)
class RateBand:
    """Parcels up to ``max_kg`` billable weight (inclusive) cost ``price`` EUR."""

    max_kg: Decimal
    price: Decimal


@dataclass(frozen=True)
class Carrier:
    """A parcel carrier.

    ``rates`` maps a delivery zone to its weight bands, lightest first. ``max_side_cm`` is the
    longest side of a unit the carrier accepts; ``accepts_hazmat`` whether it carries
    dangerous goods; ``tracking_prefix`` starts every tracking number it issues.
    """

    code: str
    name: str
    tracking_prefix: str
    max_side_cm: Decimal
    accepts_hazmat: bool
    rates: Mapping[int, tuple[RateBand, ...]]

    def max_weight_kg(self, zone: int) -> Decimal:
        """The heaviest billable weight taken to ``zone`` (0 if the zone is not served)."""
        bands = self.rates.get(zone, ())
        return bands[-1].max_kg if bands else Decimal(0)

    def price_for(self, zone: int, billable_kg: Decimal) -> Decimal | None:
        """The price of the first band that fits ``billable_kg``, or ``None`` if none does."""
        for band in self.rates.get(zone, ()):
            if billable_kg <= band.max_kg:
                return band.price
        return None


def _bands(*pairs: tuple[str, str]) -> tuple[RateBand, ...]:
    return tuple(RateBand(Decimal(max_kg), Decimal(price)) for max_kg, price in pairs)


CARRIERS: dict[str, Carrier] = {
    "PARCELCO": Carrier(
        code="PARCELCO",
        name="ParcelCo Standard",
        tracking_prefix="PC",
        max_side_cm=Decimal(175),
        accepts_hazmat=True,
        rates={
            1: _bands(
                ("2", "4.90"), ("5", "6.90"), ("10", "9.90"), ("20", "14.90"), ("31.5", "19.90")
            ),
            2: _bands(
                ("2", "9.50"), ("5", "13.50"), ("10", "18.90"), ("20", "27.50"), ("31.5", "36.00")
            ),
            3: _bands(
                ("2", "19.00"), ("5", "29.00"), ("10", "44.00"), ("20", "69.00"), ("31.5", "95.00")
            ),
        },
    ),
    "SKYFAST": Carrier(
        code="SKYFAST",
        name="SkyFast Air Express",
        tracking_prefix="SF",
        max_side_cm=Decimal(120),
        accepts_hazmat=False,
        rates={
            1: _bands(("1", "7.50"), ("5", "12.90"), ("10", "18.50"), ("25", "29.00")),
            2: _bands(("1", "14.00"), ("5", "22.00"), ("10", "34.00"), ("25", "58.00")),
            3: _bands(("1", "29.00"), ("5", "49.00"), ("10", "79.00"), ("25", "139.00")),
        },
    ),
}


def get_carrier(code: str) -> Carrier:
    """The carrier with this code, or :class:`UnknownCarrierError` naming the known ones."""
    try:
        return CARRIERS[code]
    except KeyError:
        raise UnknownCarrierError(code, sorted(CARRIERS)) from None
