"""The append-only journal of ledger entries.

Private to ``ledger``: only :class:`ledger.Ledger` appends here, after it has
checked the account, the currency and the sign of the amount.  Entries are never
changed or removed; corrections are new entries.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from enum import Enum

from money import Currency, Money


class EntryKind(str, Enum):
    CHARGE = "charge"
    PAYMENT = "payment"
    CREDIT = "credit"


@dataclass(frozen=True)
class JournalEntry:
    """One posting.  ``amount`` is signed: positive increases what the customer owes."""

    entry_id: str
    account_id: str
    kind: EntryKind
    amount: Money
    posted_on: date
    description: str
    reference: str | None = None


class Journal:
    """Entries in posting order."""

    def __init__(self) -> None:
        self._entries: list[JournalEntry] = []

    def __len__(self) -> int:
        return len(self._entries)

    def append(
        self,
        account_id: str,
        kind: EntryKind,
        amount: Money,
        posted_on: date,
        description: str,
        reference: str | None = None,
    ) -> JournalEntry:
        entry = JournalEntry(
            entry_id=f"JE-{len(self._entries) + 1:06d}",
            account_id=account_id,
            kind=kind,
            amount=amount,
            posted_on=posted_on,
            description=description,
            reference=reference,
        )
        self._entries.append(entry)
        return entry

    def entries(self, account_id: str | None = None) -> tuple[JournalEntry, ...]:
        """Entries of one account (or all), in posting order."""
        return tuple(e for e in self._entries if account_id is None or e.account_id == account_id)

    def by_reference(self, reference: str) -> tuple[JournalEntry, ...]:
        return tuple(e for e in self._entries if e.reference == reference)

    def balance(self, account_id: str, currency: Currency, until: date | None = None) -> Money:
        """Sum of the account's entries posted on or before ``until`` (all when None)."""
        total = Money.zero(currency)
        for entry in self._entries:
            if entry.account_id == account_id and (until is None or entry.posted_on <= until):
                total = total + entry.amount
        return total
