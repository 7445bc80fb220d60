"""Carrier re-weighing: the carriers' hubs weigh every parcel again and report what they found.

A hub reports the measured weight as text in its own unit: ``"12.5 kg"``, ``"27.6 lb"``,
``"14500 g"`` or ``"40 oz"``. If the measured weight gives a higher billable weight than the one
we were quoted, the carrier bills the difference between the two rate bands.
"""

from __future__ import annotations

import re
from decimal import Decimal

from catalog import ceil_to_step, round_weight

from .carriers import get_carrier
from .errors import NoRateError
from .parcel import BILLABLE_STEP_KG
from .rates import Quote

# The factors the hubs' scales convert with (1 lb = 0.4536 kg). The carrier bills by what its
# hub computed, so reports are read with the hub's factors, not with exact ones.
HUB_KG_PER_UNIT: dict[str, Decimal] = {
    "kg": Decimal(1),
    "g": Decimal("0.001"),
    "lb": Decimal("0.4536"),
    "oz": Decimal("0.02835"),
}
_REPORT = re.compile(r"\s*([0-9]+(?:\.[0-9]+)?)\s*([A-Za-z]+)\s*")


def parse_reported_weight(report: str) -> Decimal:
    """The weight a hub reported, in kg rounded to grams (halves up).

    The unit is matched case-insensitively; an unknown unit or a malformed report raises
    :class:`ValueError`.
    """
    match = _REPORT.fullmatch(report)
    if match is None:
        raise ValueError(f"malformed weight report {report!r}")
    number, unit = match.groups()
    factor = HUB_KG_PER_UNIT.get(unit.lower())
    if factor is None:
        raise ValueError(f"unknown unit {unit!r} in weight report {report!r}")
    return round_weight(Decimal(number) * factor)


def reweigh_adjustment(quote: Quote, report: str) -> Decimal:
    """What the carrier bills on top of ``quote`` after its hub re-weighed the parcel.

    The measured weight is rounded up to the billable step (0.5 kg); if that is not above the
    quoted billable weight there is nothing to pay (``0.00``). Otherwise the adjustment is the
    price of the measured weight's band minus the quoted price. A measured weight above the
    carrier's heaviest band raises :class:`NoRateError`.
    """
    measured = ceil_to_step(parse_reported_weight(report), BILLABLE_STEP_KG)
    if measured <= quote.billable_kg:
        return Decimal("0.00")
    carrier = get_carrier(quote.carrier)
    price = carrier.price_for(quote.zone, measured)
    if price is None:
        raise NoRateError(
            f"{carrier.code} has no rate for a re-weighed {measured} kg to zone {quote.zone}"
        )
    return price - quote.price
