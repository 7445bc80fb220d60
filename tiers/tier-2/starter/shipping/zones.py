"""Delivery zones. We ship from Germany: zone 1 is domestic, zone 2 the rest of the EU,
zone 3 the rest of the world."""

from __future__ import annotations

import re

DOMESTIC_COUNTRY = "DE"
EU_COUNTRIES = frozenset(
    {
        "AT", "BE", "BG", "CY", "CZ", "DK", "EE", "ES", "FI", "FR", "GR", "HR", "HU",
        "IE", "IT", "LT", "LU", "LV", "MT", "NL", "PL", "PT", "RO", "SE", "SI", "SK",
    }
)  # fmt: skip
_COUNTRY = re.compile(r"[A-Z]{2}")


def zone_for(country: str) -> int:
    """The delivery zone (1, 2 or 3) of an ISO alpha-2 country code."""
    if not _COUNTRY.fullmatch(country):
        raise ValueError(f"country must be an ISO alpha-2 code, got {country!r}")
    if country == DOMESTIC_COUNTRY:
        return 1
    if country in EU_COUNTRIES:
        return 2
    return 3
