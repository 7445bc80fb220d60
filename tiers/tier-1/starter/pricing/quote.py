"""Quotes: the full price breakdown of a set of seats.

A quote lists every seat with its face value, fees and its share of the
order discount. The discount is spread over the lines in proportion to their
face values (:func:`pricing.money.allocate`), so that a single ticket can
later be refunded at the price the customer actually paid for it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

from events import parse_seat_label
from pricing.discounts import DiscountCode, discount_amount
from pricing.errors import PricingError
from pricing.fees import ticket_fees
from pricing.money import allocate, quantize
from pricing.tiers import PriceTable


@dataclass(frozen=True)
class QuoteLine:
    """One seat of a quote."""

    seat: str
    tier_code: str
    face_value: Decimal
    service_fee: Decimal
    facility_fee: Decimal
    discount: Decimal

    @property
    def total(self) -> Decimal:
        """What the customer pays for this seat."""
        return self.face_value - self.discount + self.service_fee + self.facility_fee


@dataclass(frozen=True)
class Quote:
    """The price of a set of seats for one event."""

    event_id: str
    currency: str
    lines: tuple[QuoteLine, ...]
    discount_code: str | None = None

    @property
    def face_total(self) -> Decimal:
        """Sum of face values, before discount."""
        return sum((line.face_value for line in self.lines), quantize(0, self.currency))

    @property
    def discount_total(self) -> Decimal:
        """Total discount."""
        return sum((line.discount for line in self.lines), quantize(0, self.currency))

    @property
    def fees_total(self) -> Decimal:
        """Sum of all service and facility fees."""
        return sum(
            (line.service_fee + line.facility_fee for line in self.lines),
            quantize(0, self.currency),
        )

    @property
    def total(self) -> Decimal:
        """Amount to charge."""
        return self.face_total - self.discount_total + self.fees_total


def build_quote(
    table: PriceTable,
    seats: Sequence[str],
    *,
    discount: DiscountCode | None = None,
) -> Quote:
    """Price ``seats`` with ``table`` and an optional, already validated code.

    Lines keep the order of ``seats``; labels are canonicalised.

    Raises:
        PricingError: no seats, or a seat given twice.
        NoPriceError: a seat's section is not priced.
    """
    labels = [parse_seat_label(seat).label for seat in seats]
    if not labels:
        raise PricingError("a quote needs at least one seat")
    if len(set(labels)) != len(labels):
        raise PricingError("a seat appears twice in the quote")
    currency = table.currency
    tiers = [table.tier_for_seat(label) for label in labels]
    faces = [tier.face_value for tier in tiers]
    if discount is None:
        shares = [quantize(0, currency)] * len(labels)
    else:
        off = discount_amount(discount, sum(faces, Decimal(0)), currency)
        shares = allocate(off, faces, currency)
    lines = []
    for label, tier, face, share in zip(labels, tiers, faces, shares, strict=True):
        fees = ticket_fees(face, currency)
        lines.append(
            QuoteLine(
                seat=label,
                tier_code=tier.code,
                face_value=face,
                service_fee=fees.service,
                facility_fee=fees.facility,
                discount=share,
            )
        )
    return Quote(
        event_id=table.event_id,
        currency=currency,
        lines=tuple(lines),
        discount_code=None if discount is None else discount.code,
    )
