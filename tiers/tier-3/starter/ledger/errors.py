"""Errors raised by the ledger."""

from __future__ import annotations

from money import BillingError


class LedgerError(BillingError):
    code = "ledger_error"


class AccountNotFoundError(LedgerError):
    code = "account_not_found"


class AccountClosedError(LedgerError):
    """Posting to, or subscribing with, an account that has been closed."""

    code = "account_closed"


class InvalidAccountError(LedgerError):
    """Account details that break a rule (name, e-mail, country)."""

    code = "invalid_account"


class AccountNotSettledError(LedgerError):
    """Closing an account whose balance is not zero."""

    code = "account_not_settled"
