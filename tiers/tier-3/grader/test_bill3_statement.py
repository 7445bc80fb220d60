"""BILL-3: account statements with running balances."""

from datetime import date

import pytest

from ledger import AccountNotFoundError, Ledger, LedgerError
from money import Money


def eur(amount):
    return Money.of(amount, "EUR")


@pytest.fixture
def ledger_with_history():
    ledger = Ledger()
    acc = ledger.open_account("Acme", "ap@acme.test", "EUR", "DE")
    aid = acc.account_id
    ledger.post_charge(aid, eur("100.00"), date(2025, 1, 5), "Invoice INV-1", reference="INV-1")
    ledger.post_payment(aid, eur("40.00"), date(2025, 1, 20), "Payment received")
    ledger.post_charge(aid, eur("59.62"), date(2025, 2, 1), "Invoice INV-2", reference="INV-2")
    # back-dated: posted after the February charge but dated in January
    ledger.post_credit(aid, eur("5.00"), date(2025, 1, 31), "Credit: outage")
    ledger.post_payment(aid, eur("60.00"), date(2025, 2, 10), "Payment received")
    ledger.post_charge(aid, eur("12.00"), date(2025, 2, 10), "Invoice INV-3", reference="INV-3")
    ledger.post_charge(aid, eur("30.00"), date(2025, 3, 1), "Invoice INV-4", reference="INV-4")
    return ledger, aid


def test_statement_opening_lines_and_closing(ledger_with_history):
    ledger, aid = ledger_with_history
    statement = ledger.statement(aid, date(2025, 1, 21), date(2025, 2, 10))
    assert statement.account_id == aid
    assert (statement.start, statement.end) == (date(2025, 1, 21), date(2025, 2, 10))
    assert statement.opening_balance == eur("60.00")
    rows = [(line.posted_on, line.description, line.amount, line.balance) for line in statement.lines]
    assert rows == [
        (date(2025, 1, 31), "Credit: outage", eur("-5.00"), eur("55.00")),
        (date(2025, 2, 1), "Invoice INV-2", eur("59.62"), eur("114.62")),
        (date(2025, 2, 10), "Payment received", eur("-60.00"), eur("54.62")),
        (date(2025, 2, 10), "Invoice INV-3", eur("12.00"), eur("66.62")),
    ]
    assert statement.lines[1].reference == "INV-2"
    assert statement.lines[0].reference is None
    assert statement.closing_balance == eur("66.62")


def test_statement_exported_types_and_empty_periods(ledger_with_history):
    from ledger import Statement, StatementLine

    ledger, aid = ledger_with_history
    statement = ledger.statement(aid, date(2024, 1, 1), date(2024, 12, 31))
    assert isinstance(statement, Statement)
    assert statement.lines == ()
    assert statement.opening_balance == eur("0.00")
    assert statement.closing_balance == eur("0.00")
    one_day = ledger.statement(aid, date(2025, 3, 1), date(2025, 3, 1))
    assert len(one_day.lines) == 1
    assert isinstance(one_day.lines[0], StatementLine)
    assert one_day.opening_balance == eur("66.62")
    assert one_day.closing_balance == eur("96.62")


def test_statement_errors(ledger_with_history):
    from ledger import InvalidStatementPeriodError

    ledger, aid = ledger_with_history
    with pytest.raises(InvalidStatementPeriodError) as info:
        ledger.statement(aid, date(2025, 2, 1), date(2025, 1, 31))
    assert info.value.code == "invalid_period"
    assert isinstance(info.value, LedgerError)
    with pytest.raises(AccountNotFoundError):
        ledger.statement("ACC-0404", date(2025, 1, 1), date(2025, 1, 31))
