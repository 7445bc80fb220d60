from datetime import date
from decimal import Decimal

import pytest

from invoicing import (
    DuplicateInvoiceError,
    InvoiceBook,
    InvoiceGenerator,
    InvoiceStatus,
    OverpaymentError,
    tax_lines_for,
)
from ledger import Ledger
from money import Money
from plans import Subscription


def eur(amount):
    return Money.of(amount, "EUR")


@pytest.fixture
def setup(catalog):
    ledger = Ledger()
    book = InvoiceBook()
    generator = InvoiceGenerator(catalog, ledger, book)
    return ledger, book, generator


def subscribe(catalog, account, plan="basic", start=date(2025, 2, 1), addons=None):
    return Subscription("SUB-1", account.account_id, catalog.get_plan(plan), start, addons or {})


def test_period_invoice_lines_and_german_vat(catalog, setup):
    ledger, _, generator = setup
    acc = ledger.open_account("Acme", "a@acme.test", "EUR", "DE")
    sub = subscribe(catalog, acc, addons={"seats": 3})
    invoice = generator.generate(sub, 0, issued_on=date(2025, 2, 1))
    assert [(line.kind.value, line.amount) for line in invoice.lines] == [
        ("plan", eur("30.10")),
        ("addon", eur("30.00")),
    ]
    assert invoice.subtotal == eur("60.10")
    # 60.10 x 19% = 11.419 -> 11.42
    assert [(t.description, t.amount) for t in invoice.tax_lines] == [("VAT 19%", eur("11.42"))]
    assert invoice.total == eur("71.52")
    assert invoice.due_on == date(2025, 2, 15)
    assert invoice.status is InvoiceStatus.OPEN


def test_issuing_charges_the_ledger(catalog, setup):
    ledger, book, generator = setup
    acc = ledger.open_account("Acme", "a@acme.test", "EUR", "DE")
    invoice = generator.generate(subscribe(catalog, acc), 0, issued_on=date(2025, 2, 1))
    entries = ledger.find_entries(invoice.number)
    assert [e.amount for e in entries] == [invoice.total]
    assert ledger.balance(acc.account_id) == invoice.total
    assert book.get(invoice.number) is invoice


def test_a_period_is_invoiced_once(catalog, setup):
    ledger, _, generator = setup
    acc = ledger.open_account("Acme", "a@acme.test", "EUR", "DE")
    sub = subscribe(catalog, acc)
    first = generator.generate(sub, 0, issued_on=date(2025, 2, 1))
    with pytest.raises(DuplicateInvoiceError):
        generator.generate(sub, 0, issued_on=date(2025, 2, 2))
    second = generator.generate(sub, 1, issued_on=date(2025, 3, 1))
    assert first.number != second.number
    assert second.period.start == date(2025, 3, 1)


def test_no_tax_line_where_no_tax_is_due():
    assert tax_lines_for(Money.of("19.00", "USD"), "US") == ()
    assert tax_lines_for(eur("19.00"), "ZZ") == ()
    # 0.50 x 19% = 0.095 -> 0.10 (half-up)
    (line,) = tax_lines_for(eur("0.50"), "DE")
    assert line.amount == eur("0.10")
    assert line.rate == Decimal("0.19")


def test_payments_on_an_invoice(catalog, setup):
    ledger, _, generator = setup
    acc = ledger.open_account("Acme", "a@acme.test", "EUR", "US")
    invoice = generator.generate(subscribe(catalog, acc), 0, issued_on=date(2025, 2, 1))
    invoice.apply_payment(eur("10.00"))
    assert invoice.outstanding == eur("20.10")
    with pytest.raises(OverpaymentError):
        invoice.apply_payment(eur("20.11"))
    invoice.apply_payment(eur("20.10"))
    assert invoice.status is InvoiceStatus.PAID
    assert invoice.outstanding.is_zero()


def test_open_and_overdue_invoices(catalog, setup):
    ledger, book, generator = setup
    acc = ledger.open_account("Acme", "a@acme.test", "EUR", "DE")
    sub = subscribe(catalog, acc)
    jan = generator.generate(sub, 0, issued_on=date(2025, 2, 1))
    feb = generator.generate(sub, 1, issued_on=date(2025, 3, 1))
    assert book.open_invoices(acc.account_id) == [jan, feb]
    assert book.overdue(date(2025, 2, 15)) == []
    assert book.overdue(date(2025, 2, 16)) == [jan]
    assert jan.days_overdue(date(2025, 2, 20)) == 5
