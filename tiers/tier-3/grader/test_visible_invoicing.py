"""Baseline, judged through the bridge: what the repository's tests/test_invoicing.py covers."""

from datetime import date
from decimal import Decimal

import pytest


@pytest.fixture
def setup(ledger_pkg, invoicing, starter_catalog):
    ledger = ledger_pkg.Ledger()
    book = invoicing.InvoiceBook()
    generator = invoicing.InvoiceGenerator(starter_catalog, ledger, book)
    return ledger, book, generator


@pytest.fixture
def subscribe(plans, starter_catalog):
    def make(account, plan="basic", start=date(2025, 2, 1), addons=None):
        plan_ref = starter_catalog.get_plan(plan)
        return plans.Subscription("SUB-1", account.account_id, plan_ref, start, addons or {})

    return make


def test_period_invoice_lines_and_german_vat(setup, subscribe, cash):
    ledger, _, generator = setup
    acc = ledger.open_account("Acme", "a@acme.test", "EUR", "DE")
    sub = subscribe(acc, addons={"seats": 3})
    invoice = generator.generate(sub, 0, issued_on=date(2025, 2, 1))
    assert [(line.kind.value, cash(line.amount)) for line in invoice.lines] == [
        ("plan", "30.10 EUR"),
        ("addon", "30.00 EUR"),
    ]
    assert cash(invoice.subtotal) == "60.10 EUR"
    # 60.10 x 19% = 11.419 -> 11.42
    assert [(t.description, cash(t.amount)) for t in invoice.tax_lines] == [("VAT 19%", "11.42 EUR")]
    assert cash(invoice.total) == "71.52 EUR"
    assert invoice.due_on == date(2025, 2, 15)
    assert invoice.status.value == "open"


def test_issuing_charges_the_ledger(setup, subscribe, cash):
    ledger, book, generator = setup
    acc = ledger.open_account("Acme", "a@acme.test", "EUR", "DE")
    invoice = generator.generate(subscribe(acc), 0, issued_on=date(2025, 2, 1))
    total = cash(invoice.total)
    assert [cash(e.amount) for e in ledger.find_entries(invoice.number)] == [total]
    assert cash(ledger.balance(acc.account_id)) == total == "35.82 EUR"
    filed = book.get(invoice.number)
    assert (filed.number, cash(filed.total)) == (invoice.number, total)


def test_a_period_is_invoiced_once(subject, setup, subscribe):
    ledger, _, generator = setup
    acc = ledger.open_account("Acme", "a@acme.test", "EUR", "DE")
    sub = subscribe(acc)
    first = generator.generate(sub, 0, issued_on=date(2025, 2, 1))
    with subject.raises("invoicing.DuplicateInvoiceError"):
        generator.generate(sub, 0, issued_on=date(2025, 2, 2))
    second = generator.generate(sub, 1, issued_on=date(2025, 3, 1))
    assert first.number != second.number
    assert second.period.start == date(2025, 3, 1)


def test_no_tax_line_where_no_tax_is_due(money, invoicing, eur, cash):
    assert len(invoicing.tax_lines_for(money.Money.of("19.00", "USD"), "US")) == 0
    assert len(invoicing.tax_lines_for(eur("19.00"), "ZZ")) == 0
    # 0.50 x 19% = 0.095 -> 0.10 (half-up)
    (line,) = invoicing.tax_lines_for(eur("0.50"), "DE")
    assert cash(line.amount) == "0.10 EUR"
    assert line.rate == Decimal("0.19")


def test_payments_on_an_invoice(subject, setup, subscribe, eur, cash):
    ledger, _, generator = setup
    acc = ledger.open_account("Acme", "a@acme.test", "EUR", "US")
    invoice = generator.generate(subscribe(acc), 0, issued_on=date(2025, 2, 1))
    invoice.apply_payment(eur("10.00"))
    assert cash(invoice.outstanding) == "20.10 EUR"
    with subject.raises("invoicing.OverpaymentError"):
        invoice.apply_payment(eur("20.11"))
    invoice.apply_payment(eur("20.10"))
    assert invoice.status.value == "paid"
    assert cash(invoice.outstanding) == "0.00 EUR"


def test_open_and_overdue_invoices(setup, subscribe):
    ledger, book, generator = setup
    acc = ledger.open_account("Acme", "a@acme.test", "EUR", "DE")
    sub = subscribe(acc)
    jan = generator.generate(sub, 0, issued_on=date(2025, 2, 1)).number
    feb = generator.generate(sub, 1, issued_on=date(2025, 3, 1)).number
    assert [i.number for i in book.open_invoices(acc.account_id)] == [jan, feb]
    assert [i.number for i in book.overdue(date(2025, 2, 15))] == []
    assert [i.number for i in book.overdue(date(2025, 2, 16))] == [jan]
    assert book.get(jan).days_overdue(date(2025, 2, 20)) == 5
