"""Issuing invoices for subscriptions."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, timedelta

from invoicing.book import InvoiceBook
from invoicing.errors import DuplicateInvoiceError
from invoicing.models import Invoice, InvoiceLine, InvoiceStatus, LineKind, TaxLine
from invoicing.numbering import InvoiceNumberer
from invoicing.tax import tax_lines_for
from ledger import Account, Ledger
from money import Money, sum_money
from plans import BillingPeriod, Catalog, NotBillableError, Plan, Subscription

DEFAULT_PAYMENT_TERMS_DAYS = 14


class InvoiceGenerator:
    """Builds, numbers, posts and files invoices.

    Subscriptions are billed in advance: the invoice for a period lists the plan
    in force on the period's first day and the subscription's add-ons, then the
    tax for the customer's country.  Issuing an invoice posts its total as a
    charge on the customer's ledger account (reference: the invoice number) and
    files it in the book.  Invoices are due ``payment_terms_days`` after issue.
    """

    def __init__(
        self,
        catalog: Catalog,
        ledger: Ledger,
        book: InvoiceBook | None = None,
        *,
        payment_terms_days: int = DEFAULT_PAYMENT_TERMS_DAYS,
    ) -> None:
        if payment_terms_days < 0:
            raise ValueError("payment_terms_days must not be negative")
        self._catalog = catalog
        self._ledger = ledger
        self._book = book if book is not None else InvoiceBook()
        self._numberer = InvoiceNumberer()
        self._payment_terms = timedelta(days=payment_terms_days)

    @property
    def book(self) -> InvoiceBook:
        return self._book

    def generate(self, subscription: Subscription, period_index: int, issued_on: date) -> Invoice:
        """Issue the invoice for the ``period_index``-th period of ``subscription``."""
        account = self._ledger.get_account(subscription.account_id)
        period = subscription.period(period_index)
        if subscription.canceled_on is not None and period.start >= subscription.canceled_on:
            raise NotBillableError(f"subscription {subscription.subscription_id} is canceled")
        if self._book.for_period(subscription.subscription_id, period.start) is not None:
            raise DuplicateInvoiceError(
                f"subscription {subscription.subscription_id} is already invoiced for {period}"
            )
        plan = subscription.plan_on(period.start)
        lines = [self._plan_line(plan, period)]
        lines.extend(self._addon_lines(subscription))

        subtotal = sum_money((line.amount for line in lines), plan.currency)
        tax_lines = self._tax_lines(account, subtotal)
        return self._issue(account, subscription.subscription_id, period, lines, tax_lines, issued_on)

    # -- building blocks ----------------------------------------------------

    def _plan_line(self, plan: Plan, period: BillingPeriod) -> InvoiceLine:
        return InvoiceLine(
            kind=LineKind.PLAN,
            description=f"{plan.name} plan ({period})",
            quantity=1,
            unit_price=plan.price,
            amount=plan.price,
        )

    def _addon_lines(self, subscription: Subscription) -> list[InvoiceLine]:
        lines = []
        for code, quantity in sorted(subscription.addons.items()):
            addon = self._catalog.get_addon(code)
            lines.append(
                InvoiceLine(
                    kind=LineKind.ADDON,
                    description=addon.name,
                    quantity=quantity,
                    unit_price=addon.unit_price,
                    amount=addon.price_for(quantity),
                )
            )
        return lines

    def _tax_lines(self, account: Account, subtotal: Money) -> tuple[TaxLine, ...]:
        """The tax an invoice with ``subtotal`` carries for ``account``."""
        return tax_lines_for(subtotal, account.country)

    def _issue(
        self,
        account: Account,
        subscription_id: str | None,
        period: BillingPeriod | None,
        lines: Sequence[InvoiceLine],
        tax_lines: Sequence[TaxLine],
        issued_on: date,
    ) -> Invoice:
        """Number, post and file an invoice."""
        number = self._numberer.next_number(issued_on)
        invoice = Invoice(
            number=number,
            account_id=account.account_id,
            subscription_id=subscription_id,
            currency=account.currency,
            issued_on=issued_on,
            due_on=issued_on + self._payment_terms,
            period=period,
            lines=tuple(lines),
            tax_lines=tuple(tax_lines),
        )
        total = invoice.total
        if total.is_positive():
            self._ledger.post_charge(
                account.account_id, total, issued_on, f"Invoice {number}", reference=number
            )
        else:
            invoice.status = InvoiceStatus.PAID  # nothing to collect
        self._book.add(invoice)
        return invoice
