"""The :class:`Ledger`: accounts plus the postings made to them."""

from __future__ import annotations

from datetime import date

from ledger.accounts import Account, AccountStatus, normalize_details
from ledger.errors import (
    AccountClosedError,
    AccountNotFoundError,
    AccountNotSettledError,
)
from ledger.journal import EntryKind, Journal, JournalEntry
from money import Currency, CurrencyMismatchError, InvalidAmountError, Money, get_currency


class Ledger:
    """Opens accounts and records charges, payments and credits on them.

    Account ids are handed out in order: ``ACC-0001``, ``ACC-0002``, ...
    All amounts given to ``post_*`` are positive; the ledger applies the sign.
    """

    def __init__(self) -> None:
        self._accounts: dict[str, Account] = {}
        self._journal = Journal()

    # -- accounts -----------------------------------------------------------

    def open_account(
        self, name: str, email: str, currency: str | Currency, country: str
    ) -> Account:
        name, email, country = normalize_details(name, email, country)
        if isinstance(currency, str):
            currency = get_currency(currency)
        account = Account(
            account_id=f"ACC-{len(self._accounts) + 1:04d}",
            name=name,
            email=email,
            currency=currency,
            country=country,
        )
        self._accounts[account.account_id] = account
        return account

    def get_account(self, account_id: str) -> Account:
        try:
            return self._accounts[account_id]
        except (KeyError, TypeError):
            raise AccountNotFoundError(f"no account {account_id!r}") from None

    def accounts(self) -> list[Account]:
        return list(self._accounts.values())

    def close_account(self, account_id: str) -> Account:
        """Close an account whose balance is exactly zero."""
        account = self._open_account(account_id)
        balance = self.balance(account_id)
        if not balance.is_zero():
            raise AccountNotSettledError(
                f"account {account_id} has a balance of {balance}; settle it before closing"
            )
        account.status = AccountStatus.CLOSED
        return account

    # -- postings -----------------------------------------------------------

    def post_charge(
        self, account_id: str, amount: Money, on: date, description: str, reference: str | None = None
    ) -> JournalEntry:
        """Record that the customer owes ``amount`` more."""
        return self._post(account_id, EntryKind.CHARGE, amount, on, description, reference)

    def post_payment(
        self, account_id: str, amount: Money, on: date, description: str, reference: str | None = None
    ) -> JournalEntry:
        """Record money received from the customer."""
        return self._post(account_id, EntryKind.PAYMENT, -amount, on, description, reference)

    def post_credit(
        self, account_id: str, amount: Money, on: date, description: str, reference: str | None = None
    ) -> JournalEntry:
        """Record a credit in the customer's favour (goodwill, refund of a charge)."""
        return self._post(account_id, EntryKind.CREDIT, -amount, on, description, reference)

    def _post(
        self,
        account_id: str,
        kind: EntryKind,
        signed: Money,
        on: date,
        description: str,
        reference: str | None,
    ) -> JournalEntry:
        account = self._open_account(account_id)
        if signed.currency != account.currency:
            raise CurrencyMismatchError(
                f"account {account_id} is billed in {account.currency.code}, "
                f"not {signed.currency.code}"
            )
        if signed.is_zero():
            raise InvalidAmountError(f"a {kind.value} must not be zero")
        positive = kind is EntryKind.CHARGE
        if signed.is_positive() != positive:
            raise InvalidAmountError(f"the amount of a {kind.value} must be positive")
        return self._journal.append(account_id, kind, signed, on, description, reference)

    def _open_account(self, account_id: str) -> Account:
        account = self.get_account(account_id)
        if account.is_closed:
            raise AccountClosedError(f"account {account_id} is closed")
        return account

    # -- queries ------------------------------------------------------------

    def balance(self, account_id: str, on: date | None = None) -> Money:
        """What the customer owes (negative: credit), counting entries up to ``on``."""
        account = self.get_account(account_id)
        return self._journal.balance(account_id, account.currency, until=on)

    def entries(self, account_id: str) -> tuple[JournalEntry, ...]:
        """The account's entries in posting order (signed amounts)."""
        self.get_account(account_id)
        return self._journal.entries(account_id)

    def find_entries(self, reference: str) -> tuple[JournalEntry, ...]:
        """Entries posted with ``reference`` (e.g. an invoice number), in posting order."""
        return self._journal.by_reference(reference)
