from datetime import date

import pytest

from invoicing import InvoiceGenerator
from ledger import Ledger
from notify import DUNNING_STAGES, Email, render_dunning_email, stage_for
from plans import Subscription


@pytest.mark.parametrize(
    ("days", "key"),
    [(0, None), (1, "reminder"), (6, "reminder"), (7, "second_reminder"), (14, "final_notice")],
)
def test_stage_for(days, key):
    stage = stage_for(days)
    assert (stage.key if stage else None) == key


def test_stage_keys_are_unique():
    keys = [s.key for s in DUNNING_STAGES]
    assert len(keys) == len(set(keys))
    assert [s.days_overdue for s in DUNNING_STAGES] == sorted(s.days_overdue for s in DUNNING_STAGES)


def test_render_reminder(catalog):
    ledger = Ledger()
    acc = ledger.open_account("Acme", "ap@acme.test", "EUR", "DE")
    sub = Subscription("SUB-1", acc.account_id, catalog.get_plan("basic"), date(2025, 2, 1))
    invoice = InvoiceGenerator(catalog, ledger).generate(sub, 0, issued_on=date(2025, 2, 1))
    email = render_dunning_email(
        stage_for(8), invoice, customer_name="Acme", customer_email="ap@acme.test", on=date(2025, 2, 23)
    )
    assert isinstance(email, Email)
    assert email.to == "ap@acme.test"
    assert email.subject == f"Second reminder: invoice {invoice.number} is 8 days overdue"
    assert "Amount outstanding: \u20ac35.82" in email.body
    assert email.body.startswith("Hello Acme,")
