"""Errors raised while issuing and collecting invoices."""

from __future__ import annotations

from money import BillingError


class InvoicingError(BillingError):
    code = "invoicing_error"


class InvoiceNotFoundError(InvoicingError):
    code = "invoice_not_found"


class DuplicateInvoiceError(InvoicingError):
    """A billing period that has already been invoiced."""

    code = "duplicate_invoice"


class OverpaymentError(InvoicingError):
    """A payment for an invoice that exceeds what is still outstanding on it."""

    code = "overpayment"


class InvoiceStateError(InvoicingError):
    """Paying or voiding an invoice that is not open."""

    code = "invoice_not_open"
