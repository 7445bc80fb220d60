"""Invoices and their lines."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from enum import Enum

from invoicing.errors import InvoiceStateError, OverpaymentError
from money import Currency, InvalidAmountError, Money, sum_money
from plans import BillingPeriod


class LineKind(str, Enum):
    PLAN = "plan"
    ADDON = "addon"


class InvoiceStatus(str, Enum):
    OPEN = "open"
    PAID = "paid"
    VOID = "void"


@dataclass(frozen=True)
class InvoiceLine:
    """One billed item.  ``amount`` may differ from quantity × unit price for graduated prices."""

    kind: LineKind
    description: str
    quantity: int
    unit_price: Money
    amount: Money


@dataclass(frozen=True)
class TaxLine:
    """Tax charged on ``base`` at ``rate`` (e.g. ``Decimal("0.19")``)."""

    description: str
    rate: Decimal
    base: Money
    amount: Money


@dataclass
class Invoice:
    """An issued invoice.

    ``lines`` are the billed items; ``tax_lines`` the taxes computed on their sum.
    ``amount_paid`` grows as payments are applied; once nothing is outstanding
    the invoice is ``paid``.
    """

    number: str
    account_id: str
    subscription_id: str | None
    currency: Currency
    issued_on: date
    due_on: date
    period: BillingPeriod | None
    lines: tuple[InvoiceLine, ...]
    tax_lines: tuple[TaxLine, ...] = ()
    amount_paid: Money | None = None
    status: InvoiceStatus = InvoiceStatus.OPEN
    payments: list[tuple[date | None, Money]] = field(default_factory=list)

    def __post_init__(self) -> None:
        if self.amount_paid is None:
            self.amount_paid = Money.zero(self.currency)

    @property
    def subtotal(self) -> Money:
        return sum_money((line.amount for line in self.lines), self.currency)

    @property
    def tax(self) -> Money:
        return sum_money((line.amount for line in self.tax_lines), self.currency)

    @property
    def total(self) -> Money:
        return self.subtotal + self.tax

    @property
    def outstanding(self) -> Money:
        """What is still to be paid on this invoice (zero once paid or void)."""
        if self.status is InvoiceStatus.VOID:
            return Money.zero(self.currency)
        assert self.amount_paid is not None
        return self.total - self.amount_paid

    def is_overdue(self, on: date) -> bool:
        return self.status is InvoiceStatus.OPEN and on > self.due_on

    def days_overdue(self, on: date) -> int:
        return max(0, (on - self.due_on).days) if self.status is InvoiceStatus.OPEN else 0

    def apply_payment(self, amount: Money, on: date | None = None) -> None:
        """Apply a payment of ``amount`` (positive, at most the outstanding amount)."""
        if self.status is not InvoiceStatus.OPEN:
            raise InvoiceStateError(f"invoice {self.number} is {self.status.value}")
        if not amount.is_positive():
            raise InvalidAmountError("a payment must be positive")
        if amount > self.outstanding:
            raise OverpaymentError(
                f"invoice {self.number} has {self.outstanding} outstanding; cannot apply {amount}"
            )
        assert self.amount_paid is not None
        self.amount_paid = self.amount_paid + amount
        self.payments.append((on, amount))
        if self.outstanding.is_zero():
            self.status = InvoiceStatus.PAID

    def void(self) -> None:
        if self.status is not InvoiceStatus.OPEN:
            raise InvoiceStateError(f"invoice {self.number} is {self.status.value}")
        self.status = InvoiceStatus.VOID
