"""The error hierarchy shared by every package of the billing platform."""

from __future__ import annotations


class BillingError(Exception):
    """Base class of every domain error.

    Each subclass sets ``code``: a stable, lower-case identifier that the api
    layer puts into error responses (``{"ok": false, "error": {"code": ...}}``).
    Codes are part of the public contract; never reuse one for a different
    meaning.
    """

    code = "billing_error"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class InvalidAmountError(BillingError, ValueError):
    """An amount that is not a finite number, or has too many decimal places."""

    code = "invalid_amount"


class CurrencyMismatchError(BillingError):
    """Two amounts (or an amount and an account or plan) disagree on the currency."""

    code = "currency_mismatch"


class UnknownCurrencyError(BillingError):
    """A currency code the platform does not support."""

    code = "unknown_currency"
