"""The book of issued invoices."""

from __future__ import annotations

from datetime import date

from invoicing.errors import InvoiceNotFoundError
from invoicing.models import Invoice, InvoiceStatus


class InvoiceBook:
    """Every issued invoice, by number, in issue order."""

    def __init__(self) -> None:
        self._invoices: dict[str, Invoice] = {}

    def __len__(self) -> int:
        return len(self._invoices)

    def add(self, invoice: Invoice) -> Invoice:
        if invoice.number in self._invoices:
            raise ValueError(f"invoice {invoice.number} is already filed")
        self._invoices[invoice.number] = invoice
        return invoice

    def get(self, number: str) -> Invoice:
        try:
            return self._invoices[number]
        except (KeyError, TypeError):
            raise InvoiceNotFoundError(f"no invoice {number!r}") from None

    def for_account(self, account_id: str) -> list[Invoice]:
        return [i for i in self._invoices.values() if i.account_id == account_id]

    def for_period(self, subscription_id: str, period_start: date) -> Invoice | None:
        """The period invoice of ``subscription_id`` for the period starting on ``period_start``."""
        for invoice in self._invoices.values():
            if (
                invoice.subscription_id == subscription_id
                and invoice.period is not None
                and invoice.period.start == period_start
                and invoice.status is not InvoiceStatus.VOID
            ):
                return invoice
        return None

    def open_invoices(self, account_id: str | None = None) -> list[Invoice]:
        """Open invoices (of one account or all), oldest due date first, then in issue order."""
        found = [
            i
            for i in self._invoices.values()
            if i.status is InvoiceStatus.OPEN and (account_id is None or i.account_id == account_id)
        ]
        return sorted(found, key=lambda i: i.due_on)  # stable: issue order breaks ties

    def overdue(self, on: date) -> list[Invoice]:
        """Open invoices whose due date is before ``on``, oldest due date first."""
        return [i for i in self.open_invoices() if i.is_overdue(on)]
