"""Invoices: generation from subscriptions, tax, numbering and collection state.

``InvoiceGenerator`` turns a subscription's billing period into an invoice,
posts the invoice total to the customer's ledger account and files the invoice
in an ``InvoiceBook``.  Invoice numbers come from ``invoicing.numbering``, which
is private to this package: nothing outside ``invoicing`` hands out numbers.
"""

from invoicing.book import InvoiceBook
from invoicing.errors import (
    DuplicateInvoiceError,
    InvoiceNotFoundError,
    InvoiceStateError,
    InvoicingError,
    OverpaymentError,
)
from invoicing.generator import InvoiceGenerator
from invoicing.models import Invoice, InvoiceLine, InvoiceStatus, LineKind, TaxLine
from invoicing.tax import EU_MEMBER_STATES, SELLER_COUNTRY, TaxRate, rate_for, tax_lines_for
