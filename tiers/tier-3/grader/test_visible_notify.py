"""Baseline, judged through the bridge: what the repository's tests/test_notify.py covers."""

from datetime import date

import pytest


@pytest.mark.parametrize(
    ("days", "key"),
    [(0, None), (1, "reminder"), (6, "reminder"), (7, "second_reminder"), (14, "final_notice")],
)
def test_stage_for(notify, days, key):
    stage = notify.stage_for(days)
    assert (None if stage is None else stage.key) == key


def test_stage_keys_are_unique(notify):
    stages = list(notify.DUNNING_STAGES)
    keys = [s.key for s in stages]
    assert len(keys) == len(set(keys))
    days = [s.days_overdue for s in stages]
    assert days == sorted(days)
    assert keys[:3] == ["reminder", "second_reminder", "final_notice"]


def test_render_reminder(subject, notify, ledger_pkg, invoicing, plans, starter_catalog):
    ledger = ledger_pkg.Ledger()
    acc = ledger.open_account("Acme", "ap@acme.test", "EUR", "DE")
    sub = plans.Subscription("SUB-1", acc.account_id, starter_catalog.get_plan("basic"), date(2025, 2, 1))
    invoice = invoicing.InvoiceGenerator(starter_catalog, ledger).generate(sub, 0, issued_on=date(2025, 2, 1))
    email = notify.render_dunning_email(
        notify.stage_for(8), invoice, customer_name="Acme", customer_email="ap@acme.test", on=date(2025, 2, 23)
    )
    assert subject.isinstance(email, "notify.Email")
    assert email.to == "ap@acme.test"
    assert email.subject == f"Second reminder: invoice {invoice.number} is 8 days overdue"
    assert "Amount outstanding: \u20ac35.82" in email.body
    assert email.body.startswith("Hello Acme,")
