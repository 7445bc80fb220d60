"""Warehouses (fulfilment centres) that hold stock."""

from __future__ import annotations

import re
from dataclasses import dataclass

_CODE = re.compile(r"[A-Z]{3}")
_COUNTRY = re.compile(r"[A-Z]{2}")


@dataclass(frozen=True)
class Warehouse:
    """A fulfilment centre.

    ``code`` is three upper-case letters (``"BER"``), ``country`` an ISO 3166 alpha-2 code.
    An inactive warehouse keeps its stock but is never chosen for new reservations.
    """

    code: str
    name: str
    country: str
    active: bool = True

    def __post_init__(self) -> None:
        if not _CODE.fullmatch(self.code):
            raise ValueError(f"warehouse code must be three upper-case letters, got {self.code!r}")
        if not _COUNTRY.fullmatch(self.country):
            raise ValueError(f"country must be an ISO alpha-2 code, got {self.country!r}")
        if not self.name.strip():
            raise ValueError("warehouse name must not be blank")
