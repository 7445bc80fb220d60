from datetime import date

import pytest

from ledger import (
    AccountClosedError,
    AccountNotFoundError,
    AccountNotSettledError,
    AccountStatus,
    EntryKind,
    InvalidAccountError,
    Ledger,
)
from money import CurrencyMismatchError, InvalidAmountError, Money

D = date(2025, 3, 1)


def eur(amount):
    return Money.of(amount, "EUR")


@pytest.fixture
def ledger():
    return Ledger()


def test_open_account_normalises_details(ledger):
    first = ledger.open_account(" Acme GmbH ", "Billing@Acme.test", "EUR", "de")
    second = ledger.open_account("Bolt Ltd", "ap@bolt.test", "GBP", "GB")
    assert (first.account_id, second.account_id) == ("ACC-0001", "ACC-0002")
    assert (first.name, first.email, first.country) == ("Acme GmbH", "billing@acme.test", "DE")
    assert first.currency.code == "EUR"
    assert first.status is AccountStatus.ACTIVE


def test_invalid_account_details(ledger):
    with pytest.raises(InvalidAccountError):
        ledger.open_account("Acme", "not-an-address", "EUR", "DE")
    with pytest.raises(InvalidAccountError) as info:
        ledger.open_account("Acme", "a@acme.test", "EUR", "Germany")
    assert info.value.code == "invalid_account"
    with pytest.raises(AccountNotFoundError):
        ledger.get_account("ACC-9999")


def test_postings_and_signs(ledger):
    acc = ledger.open_account("Acme", "a@acme.test", "EUR", "DE")
    ledger.post_charge(acc.account_id, eur("100.00"), D, "Invoice", reference="INV-1")
    ledger.post_payment(acc.account_id, eur("60.00"), D, "Payment")
    ledger.post_credit(acc.account_id, eur("15.50"), D, "Goodwill")
    kinds = [(e.kind, e.amount) for e in ledger.entries(acc.account_id)]
    assert kinds == [
        (EntryKind.CHARGE, eur("100.00")),
        (EntryKind.PAYMENT, eur("-60.00")),
        (EntryKind.CREDIT, eur("-15.50")),
    ]
    assert ledger.balance(acc.account_id) == eur("24.50")
    assert [e.description for e in ledger.find_entries("INV-1")] == ["Invoice"]


def test_postings_are_validated(ledger):
    acc = ledger.open_account("Acme", "a@acme.test", "EUR", "DE")
    with pytest.raises(CurrencyMismatchError):
        ledger.post_charge(acc.account_id, Money.of("1.00", "USD"), D, "x")
    with pytest.raises(InvalidAmountError):
        ledger.post_payment(acc.account_id, eur("0.00"), D, "x")
    with pytest.raises(InvalidAmountError):
        ledger.post_charge(acc.account_id, eur("-5.00"), D, "x")


def test_balance_as_of_a_day(ledger):
    acc = ledger.open_account("Acme", "a@acme.test", "EUR", "DE")
    ledger.post_charge(acc.account_id, eur("10.00"), date(2025, 1, 10), "Jan")
    ledger.post_charge(acc.account_id, eur("20.00"), date(2025, 2, 10), "Feb")
    assert ledger.balance(acc.account_id, date(2025, 1, 31)) == eur("10.00")
    assert ledger.balance(acc.account_id) == eur("30.00")


def test_closing_requires_a_settled_account(ledger):
    acc = ledger.open_account("Acme", "a@acme.test", "EUR", "DE")
    ledger.post_charge(acc.account_id, eur("10.00"), D, "Invoice")
    with pytest.raises(AccountNotSettledError):
        ledger.close_account(acc.account_id)
    ledger.post_payment(acc.account_id, eur("10.00"), D, "Payment")
    assert ledger.close_account(acc.account_id).status is AccountStatus.CLOSED
    with pytest.raises(AccountClosedError):
        ledger.post_charge(acc.account_id, eur("1.00"), D, "late")
