"""Errors raised by the shipping package. All of them derive from :class:`ShippingError`."""

from __future__ import annotations


class ShippingError(Exception):
    """Base class of every shipping error."""


class UnknownCarrierError(ShippingError, KeyError):
    """No carrier with this code is configured."""

    def __init__(self, code: str, known: list[str]) -> None:
        super().__init__(code)
        self.code = code
        self.known = known

    def __str__(self) -> str:
        return f"unknown carrier {self.code!r}; known carriers: {', '.join(self.known)}"


class NoRateError(ShippingError):
    """The carrier has no rate for this shipment (too heavy, too long, wrong zone)."""


class HazmatRefusedError(ShippingError):
    """The carrier does not carry dangerous goods. ``skus`` lists the offending SKUs, sorted."""

    def __init__(self, carrier: str, skus: list[str]) -> None:
        super().__init__(f"{carrier} does not carry dangerous goods: {', '.join(skus)}")
        self.carrier = carrier
        self.skus = skus
