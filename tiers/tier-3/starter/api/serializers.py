"""Domain objects to JSON-ready dicts."""

from __future__ import annotations

from datetime import date
from typing import Any

from invoicing import Invoice
from ledger import Account
from money import Money
from notify import Email
from plans import BillingPeriod, NotBillableError, Subscription


def format_amount(money: Money) -> str:
    """The wire format of an amount: a plain decimal string, e.g. ``"1234.50"``."""
    return f"{money.amount:.2f}"


def period_to_dict(period: BillingPeriod | None) -> dict[str, str] | None:
    if period is None:
        return None
    return {"start": period.start.isoformat(), "end": period.end.isoformat()}


def account_to_dict(account: Account) -> dict[str, Any]:
    return {
        "account_id": account.account_id,
        "name": account.name,
        "email": account.email,
        "currency": account.currency.code,
        "country": account.country,
        "status": account.status.value,
    }


def subscription_to_dict(subscription: Subscription, on: date) -> dict[str, Any]:
    """The subscription as of ``on`` (status, plan and current period of that day)."""
    try:
        current = subscription.period(subscription.period_index_on(on))
    except NotBillableError:
        current = None
    trial_end = subscription.trial_end
    canceled_on = subscription.canceled_on
    return {
        "subscription_id": subscription.subscription_id,
        "account_id": subscription.account_id,
        "plan_code": subscription.plan_on(on).code,
        "status": subscription.status_on(on).value,
        "started_on": subscription.started_on.isoformat(),
        "trial_end": trial_end.isoformat() if trial_end else None,
        "addons": dict(subscription.addons),
        "current_period": period_to_dict(current),
        "canceled_on": canceled_on.isoformat() if canceled_on else None,
    }


def invoice_to_dict(invoice: Invoice) -> dict[str, Any]:
    return {
        "number": invoice.number,
        "account_id": invoice.account_id,
        "subscription_id": invoice.subscription_id,
        "currency": invoice.currency.code,
        "issued_on": invoice.issued_on.isoformat(),
        "due_on": invoice.due_on.isoformat(),
        "period": period_to_dict(invoice.period),
        "lines": [
            {
                "kind": line.kind.value,
                "description": line.description,
                "quantity": line.quantity,
                "unit_price": format_amount(line.unit_price),
                "amount": format_amount(line.amount),
            }
            for line in invoice.lines
        ],
        "tax_lines": [
            {
                "description": tax.description,
                "rate": str(tax.rate),
                "amount": format_amount(tax.amount),
            }
            for tax in invoice.tax_lines
        ],
        "subtotal": format_amount(invoice.subtotal),
        "tax": format_amount(invoice.tax),
        "total": format_amount(invoice.total),
        "display_total": invoice.total.format(),
        "amount_paid": format_amount(invoice.amount_paid or Money.zero(invoice.currency)),
        "outstanding": format_amount(invoice.outstanding),
        "status": invoice.status.value,
    }


def email_to_dict(email: Email) -> dict[str, str]:
    return {"to": email.to, "subject": email.subject, "body": email.body}
