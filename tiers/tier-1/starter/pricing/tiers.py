"""Price tiers: the face value of each seat of an event.

A :class:`PriceTable` maps every priced section of an event's venue to exactly
one :class:`PriceTier`. Face values exclude fees.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal

from events import parse_seat_label
from pricing.errors import NoPriceError, PricingError
from pricing.money import quantize


@dataclass(frozen=True)
class PriceTier:
    """One price level, e.g. "Floor standard" at 89.00.

    Attributes:
        code: short identifier (``"P1"``).
        name: display name.
        face_value: ticket price before fees.
        sections: section codes this tier covers.
    """

    code: str
    name: str
    face_value: Decimal
    sections: frozenset[str]


class PriceTable:
    """The price tiers of one event, in one currency."""

    def __init__(self, event_id: str, currency: str, tiers: Iterable[PriceTier]) -> None:
        self.event_id = event_id
        self.currency = currency
        self._tiers: dict[str, PriceTier] = {}
        self._by_section: dict[str, PriceTier] = {}
        for tier in tiers:
            self._add(tier)

    def _add(self, tier: PriceTier) -> None:
        if tier.code in self._tiers:
            raise PricingError(f"duplicate price tier {tier.code}")
        if tier.face_value < 0:
            raise PricingError(f"price tier {tier.code} has a negative face value")
        if quantize(tier.face_value, self.currency) != tier.face_value:
            raise PricingError(
                f"price tier {tier.code}: {tier.face_value} is not a valid {self.currency} amount"
            )
        for section in tier.sections:
            if section in self._by_section:
                raise PricingError(
                    f"section {section} is priced by both {self._by_section[section].code}"
                    f" and {tier.code}"
                )
            self._by_section[section] = tier
        self._tiers[tier.code] = tier

    @property
    def tiers(self) -> list[PriceTier]:
        """The tiers, in the order they were given."""
        return list(self._tiers.values())

    def tier_for_section(self, section_code: str) -> PriceTier:
        """The tier covering ``section_code``.

        Raises:
            NoPriceError: the section is not priced for this event.
        """
        try:
            return self._by_section[section_code]
        except KeyError:
            raise NoPriceError(
                f"section {section_code} is not priced for event {self.event_id}"
            ) from None

    def tier_for_seat(self, label: str) -> PriceTier:
        """The tier of the seat with ``label``."""
        return self.tier_for_section(parse_seat_label(label).section)

    def price_for_seat(self, label: str) -> Decimal:
        """Face value of the seat with ``label``."""
        return self.tier_for_seat(label).face_value
