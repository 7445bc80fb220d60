"""Customer accounts."""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum

from ledger.errors import (
    AccountClosedError,
    InvalidAccountError,
)
from money import Currency

EMAIL_PATTERN = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")
COUNTRY_PATTERN = re.compile(r"^[A-Z]{2}$")


class AccountStatus(str, Enum):
    ACTIVE = "active"
    CLOSED = "closed"


@dataclass
class Account:
    """A customer account, billed in one currency.

    ``country`` is the ISO 3166-1 alpha-2 code of the customer's billing address;
    it decides the tax the customer pays.
    """

    account_id: str
    name: str
    email: str
    currency: Currency
    country: str
    status: AccountStatus = AccountStatus.ACTIVE

    @property
    def is_closed(self) -> bool:
        return self.status is AccountStatus.CLOSED

    def ensure_active(self) -> None:
        """Raise unless the account may take on new business (subscriptions, plan changes)."""
        if self.status is AccountStatus.CLOSED:
            raise AccountClosedError(f"account {self.account_id} is closed")


def normalize_details(name: object, email: object, country: object) -> tuple[str, str, str]:
    """Validate and normalise account details; returns (name, email, country).

    Names are stripped, e-mail addresses lower-cased, countries upper-cased.
    """
    if not isinstance(name, str) or not name.strip():
        raise InvalidAccountError("an account needs a name")
    if not isinstance(email, str) or not EMAIL_PATTERN.match(email.strip()):
        raise InvalidAccountError(f"invalid e-mail address {email!r}")
    if not isinstance(country, str) or not COUNTRY_PATTERN.match(country.strip().upper()):
        raise InvalidAccountError(f"invalid country code {country!r}; expected e.g. 'DE'")
    return name.strip(), email.strip().lower(), country.strip().upper()
