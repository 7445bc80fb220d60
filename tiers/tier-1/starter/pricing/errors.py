"""Exceptions raised by the pricing package."""


class PricingError(Exception):
    """Base class for every error raised by :mod:`pricing`."""


class UnknownCurrencyError(PricingError, ValueError):
    """The currency code is not one the service sells in."""


class NoPriceError(PricingError, LookupError):
    """No price tier covers the requested seat."""


class InvalidDiscountCodeError(PricingError):
    """The discount code does not exist or cannot be used now."""


class DuplicateDiscountCodeError(PricingError):
    """A discount code with the same normalised spelling already exists."""
