"""Baseline, judged through the bridge: what the repository's tests/test_ledger.py covers."""

from datetime import date

import pytest

D = date(2025, 3, 1)


@pytest.fixture
def ledger(ledger_pkg):
    return ledger_pkg.Ledger()


def test_open_account_normalises_details(ledger):
    first = ledger.open_account(" Acme GmbH ", "Billing@Acme.test", "EUR", "de")
    second = ledger.open_account("Bolt Ltd", "ap@bolt.test", "GBP", "GB")
    assert (first.account_id, second.account_id) == ("ACC-0001", "ACC-0002")
    assert (first.name, first.email, first.country) == ("Acme GmbH", "billing@acme.test", "DE")
    assert first.currency.code == "EUR"
    assert first.status.value == "active"


def test_invalid_account_details(subject, ledger):
    with subject.raises("ledger.InvalidAccountError"):
        ledger.open_account("Acme", "not-an-address", "EUR", "DE")
    with subject.raises("ledger.InvalidAccountError") as info:
        ledger.open_account("Acme", "a@acme.test", "EUR", "Germany")
    assert info.value.code == "invalid_account"
    with subject.raises("ledger.AccountNotFoundError"):
        ledger.get_account("ACC-9999")


def test_postings_and_signs(ledger, eur, cash):
    acc = ledger.open_account("Acme", "a@acme.test", "EUR", "DE")
    ledger.post_charge(acc.account_id, eur("100.00"), D, "Invoice", reference="INV-1")
    ledger.post_payment(acc.account_id, eur("60.00"), D, "Payment")
    ledger.post_credit(acc.account_id, eur("15.50"), D, "Goodwill")
    kinds = [(e.kind.value, cash(e.amount)) for e in ledger.entries(acc.account_id)]
    assert kinds == [("charge", "100.00 EUR"), ("payment", "-60.00 EUR"), ("credit", "-15.50 EUR")]
    assert cash(ledger.balance(acc.account_id)) == "24.50 EUR"
    assert [e.description for e in ledger.find_entries("INV-1")] == ["Invoice"]


def test_postings_are_validated(subject, money, ledger, eur):
    acc = ledger.open_account("Acme", "a@acme.test", "EUR", "DE")
    with subject.raises("money.CurrencyMismatchError"):
        ledger.post_charge(acc.account_id, money.Money.of("1.00", "USD"), D, "x")
    with subject.raises("money.InvalidAmountError"):
        ledger.post_payment(acc.account_id, eur("0.00"), D, "x")
    with subject.raises("money.InvalidAmountError"):
        ledger.post_charge(acc.account_id, eur("-5.00"), D, "x")


def test_balance_as_of_a_day(ledger, eur, cash):
    acc = ledger.open_account("Acme", "a@acme.test", "EUR", "DE")
    ledger.post_charge(acc.account_id, eur("10.00"), date(2025, 1, 10), "Jan")
    ledger.post_charge(acc.account_id, eur("20.00"), date(2025, 2, 10), "Feb")
    assert cash(ledger.balance(acc.account_id, date(2025, 1, 31))) == "10.00 EUR"
    assert cash(ledger.balance(acc.account_id)) == "30.00 EUR"


def test_closing_requires_a_settled_account(subject, ledger, eur):
    acc = ledger.open_account("Acme", "a@acme.test", "EUR", "DE")
    ledger.post_charge(acc.account_id, eur("10.00"), D, "Invoice")
    with subject.raises("ledger.AccountNotSettledError"):
        ledger.close_account(acc.account_id)
    ledger.post_payment(acc.account_id, eur("10.00"), D, "Payment")
    assert ledger.close_account(acc.account_id).status.value == "closed"
    with subject.raises("ledger.AccountClosedError"):
        ledger.post_charge(acc.account_id, eur("1.00"), D, "late")
