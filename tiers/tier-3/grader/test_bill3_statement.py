"""BILL-3: account statements with running balances (the method's name and the error code of a
reversed period are drawn)."""

from datetime import date, timedelta

import pytest


@pytest.fixture
def ledger_with_history(ledger_pkg, eur):
    ledger = ledger_pkg.Ledger()
    aid = ledger.open_account("Acme", "ap@acme.test", "EUR", "DE").account_id
    ledger.post_charge(aid, eur("100.00"), date(2025, 1, 5), "Invoice INV-1", reference="INV-1")
    ledger.post_payment(aid, eur("40.00"), date(2025, 1, 20), "Payment received")
    ledger.post_charge(aid, eur("59.62"), date(2025, 2, 1), "Invoice INV-2", reference="INV-2")
    # back-dated: posted after the February charge but dated in January
    ledger.post_credit(aid, eur("5.00"), date(2025, 1, 31), "Credit: outage")
    ledger.post_payment(aid, eur("60.00"), date(2025, 2, 10), "Payment received")
    ledger.post_charge(aid, eur("12.00"), date(2025, 2, 10), "Invoice INV-3", reference="INV-3")
    ledger.post_charge(aid, eur("30.00"), date(2025, 3, 1), "Invoice INV-4", reference="INV-4")
    return ledger, aid


@pytest.fixture
def statement(ledger_with_history, params):
    """statement(start, end) of the history's account, by the drawn method name."""
    ledger, aid = ledger_with_history
    return lambda start, end, account=aid: getattr(ledger, params["statement_fn"])(account, start, end)


def test_statement_opening_lines_and_closing(ledger_with_history, statement, cash):
    _, aid = ledger_with_history
    result = statement(date(2025, 1, 21), date(2025, 2, 10))
    assert result.account_id == aid
    assert (result.start, result.end) == (date(2025, 1, 21), date(2025, 2, 10))
    assert cash(result.opening_balance) == "60.00 EUR"
    rows = [(line.posted_on, line.description, cash(line.amount), cash(line.balance)) for line in result.lines]
    assert rows == [
        (date(2025, 1, 31), "Credit: outage", "-5.00 EUR", "55.00 EUR"),
        (date(2025, 2, 1), "Invoice INV-2", "59.62 EUR", "114.62 EUR"),
        (date(2025, 2, 10), "Payment received", "-60.00 EUR", "54.62 EUR"),
        (date(2025, 2, 10), "Invoice INV-3", "12.00 EUR", "66.62 EUR"),
    ]
    assert result.lines[1].reference == "INV-2"
    assert result.lines[0].reference is None
    assert cash(result.closing_balance) == "66.62 EUR"


def test_statement_exported_types_and_empty_periods(subject, statement, cash):
    empty = statement(date(2024, 12, 1), date(2024, 12, 31))
    assert subject.isinstance(empty, "ledger.Statement")
    assert empty.lines == ()
    assert cash(empty.opening_balance) == "0.00 EUR"
    assert cash(empty.closing_balance) == "0.00 EUR"
    one_day = statement(date(2025, 3, 1), date(2025, 3, 1))
    assert len(one_day.lines) == 1
    assert subject.isinstance(one_day.lines[0], "ledger.StatementLine")
    assert cash(one_day.opening_balance) == "66.62 EUR"
    assert cash(one_day.closing_balance) == "96.62 EUR"


def test_statement_errors(subject, statement, params):
    with subject.raises("ledger.InvalidStatementPeriodError") as info:
        statement(date(2025, 2, 1), date(2025, 1, 31))
    assert info.value.code == params["statement_period_code"]
    assert subject.isinstance(info.value.ref, "ledger.LedgerError")
    with subject.raises("ledger.AccountNotFoundError"):
        statement(date(2025, 1, 1), date(2025, 1, 31), account="ACC-0404")


def test_statements_cover_at_most_the_allowed_number_of_days(subject, statement, params, cash):
    start = date(2025, 1, 1)
    longest = statement(start, start + timedelta(days=params["statement_max_days"] - 1))
    assert cash(longest.closing_balance) == "96.62 EUR"
    with subject.raises("ledger.InvalidStatementPeriodError") as info:
        statement(start, start + timedelta(days=params["statement_max_days"]))
    assert info.value.code == params["statement_period_code"]
