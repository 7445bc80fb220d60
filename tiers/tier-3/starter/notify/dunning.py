"""Dunning: the reminders sent while an invoice stays unpaid.

Stages are keyed by how many days an invoice is past its due date.  A dunning
run sends each overdue invoice at most one message: the highest stage it has
reached, if that stage has not been sent before.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from string import Template

from invoicing import Invoice
from notify.email import Email

_SIGNATURE = "\n\nKind regards,\nThe Billing Team\n"


@dataclass(frozen=True)
class DunningStage:
    """One step of the dunning schedule.

    ``subject`` and ``body`` are :class:`string.Template` texts; the variables
    are listed in :func:`render_dunning_email`.
    """

    key: str
    days_overdue: int
    subject: str
    body: str


DUNNING_STAGES: tuple[DunningStage, ...] = (
    DunningStage(
        key="reminder",
        days_overdue=1,
        subject="Payment reminder: invoice $invoice_number",
        body=(
            "Hello $customer_name,\n\n"
            "invoice $invoice_number of $issued_on was due on $due_on and is still open.\n"
            "Amount outstanding: $outstanding\n\n"
            "If you have already paid, please ignore this message."
        ),
    ),
    DunningStage(
        key="second_reminder",
        days_overdue=7,
        subject="Second reminder: invoice $invoice_number is $days_overdue days overdue",
        body=(
            "Hello $customer_name,\n\n"
            "we have not yet received payment for invoice $invoice_number, "
            "due on $due_on ($days_overdue days ago).\n"
            "Amount outstanding: $outstanding\n\n"
            "Please pay at your earliest convenience."
        ),
    ),
    DunningStage(
        key="final_notice",
        days_overdue=14,
        subject="Final notice: invoice $invoice_number",
        body=(
            "Hello $customer_name,\n\n"
            "invoice $invoice_number is now $days_overdue days overdue.\n"
            "Amount outstanding: $outstanding\n\n"
            "Please settle it immediately to avoid any interruption of your service."
        ),
    ),
)


def stage_for(days_overdue: int) -> DunningStage | None:
    """The highest stage reached after ``days_overdue`` days, or None before the first."""
    reached = [s for s in DUNNING_STAGES if days_overdue >= s.days_overdue]
    return max(reached, key=lambda s: s.days_overdue) if reached else None


def render_dunning_email(
    stage: DunningStage, invoice: Invoice, *, customer_name: str, customer_email: str, on: date
) -> Email:
    """Render ``stage`` for ``invoice`` as of ``on``.

    Template variables: ``customer_name``, ``invoice_number``, ``issued_on``,
    ``due_on``, ``days_overdue``, ``outstanding`` (formatted, e.g. ``$12.50``)
    and ``account_id``.
    """
    values = {
        "customer_name": customer_name,
        "invoice_number": invoice.number,
        "issued_on": invoice.issued_on.isoformat(),
        "due_on": invoice.due_on.isoformat(),
        "days_overdue": str(invoice.days_overdue(on)),
        "outstanding": invoice.outstanding.format(),
        "account_id": invoice.account_id,
    }
    subject = Template(stage.subject).substitute(values)
    body = Template(stage.body).substitute(values) + _SIGNATURE
    return Email(to=customer_email, subject=subject, body=body)
