"""BILL-10: accounts are suspended after a number of days of non-payment (the number of days and
the suspended status are drawn)."""

from datetime import date, timedelta

import pytest

DUE = date(2025, 2, 15)  # the due date of the invoice overdue_account issues


def ok(response):
    assert response["ok"] is True, response
    return response["data"]


def error_code(response):
    assert response["ok"] is False, response
    return response["error"]["code"]


@pytest.fixture
def overdue_account(service, make_account):
    """A German account with one 35.82 invoice issued 2025-02-01, due 2025-02-15."""
    aid = make_account("Acme", "DE")
    sid = ok(service.subscribe({"account_id": aid, "plan_code": "basic", "start": "2025-02-01"}))["subscription_id"]
    invoice = ok(service.generate_invoice({"subscription_id": sid, "on": "2025-02-01"}))
    return aid, sid, invoice


@pytest.fixture
def suspension_day(params):
    """The day the invoice reaches the suspension stage, as an ISO string; `offset` days later."""
    return lambda offset=0: (DUE + timedelta(days=params["suspend_days"] + offset)).isoformat()


def status(service, aid):
    return ok(service.get_account({"account_id": aid}))["status"]


def test_suspension_stage_at_the_threshold(service, overdue_account, suspension_day, params):
    aid, _, invoice = overdue_account
    days = params["suspend_days"]
    assert [e["stage"] for e in ok(service.run_dunning({"on": suspension_day(-1)}))["emails"]] == ["final_notice"]
    assert status(service, aid) == "active"
    emails = ok(service.run_dunning({"on": suspension_day()}))["emails"]
    assert [(e["stage"], e["invoice_number"], e["to"]) for e in emails] == [
        ("suspension", invoice["number"], "ap@acme.test")
    ]
    assert emails[0]["subject"] == f"Account suspended: invoice {invoice['number']} is {days} days overdue"
    assert emails[0]["body"].startswith("Hello Acme,")
    assert "Amount outstanding: \u20ac35.82" in emails[0]["body"]
    assert status(service, aid) == params["suspended_status"]
    assert ok(service.run_dunning({"on": suspension_day(1)}))["emails"] == []


def test_suspended_accounts_take_no_new_business(service, overdue_account, suspension_day, params):
    aid, sid, _ = overdue_account
    on = suspension_day(2)
    ok(service.run_dunning({"on": on}))
    assert status(service, aid) == params["suspended_status"]
    refused = f"account_{params['suspended_status']}"
    new_sub = {"account_id": aid, "plan_code": "pro", "start": on}
    assert error_code(service.subscribe(new_sub)) == refused
    change = {"subscription_id": sid, "plan_code": "pro", "on": on}
    assert error_code(service.change_plan(change)) == refused
    march = ok(service.generate_invoice({"subscription_id": sid, "on": "2025-03-01"}))
    assert march["total"] == "35.82"
    credit = ok(service.issue_credit({"account_id": aid, "amount": "1.00", "on": on, "reason": "x"}))
    assert credit["balance"] == "70.64"
    assert status(service, aid) == params["suspended_status"]


def test_settling_the_balance_lifts_the_suspension(service, overdue_account, suspension_day, params):
    aid, _, invoice = overdue_account
    ok(service.run_dunning({"on": suspension_day()}))
    ok(service.record_payment({"account_id": aid, "amount": "20.00", "on": suspension_day(1),
                               "invoice_number": invoice["number"]}))  # fmt: skip
    assert status(service, aid) == params["suspended_status"]
    ok(service.record_payment({"account_id": aid, "amount": "15.82", "on": suspension_day(2),
                               "invoice_number": invoice["number"]}))  # fmt: skip
    assert status(service, aid) == "active"
    assert ok(service.subscribe({"account_id": aid, "plan_code": "pro", "start": suspension_day(2)}))


def test_a_credit_can_lift_the_suspension_too(service, overdue_account, params):
    aid, _, _ = overdue_account
    ok(service.run_dunning({"on": "2025-04-01"}))
    assert status(service, aid) == params["suspended_status"]
    ok(service.issue_credit({"account_id": aid, "amount": "40.00", "on": "2025-04-02", "reason": "settlement"}))
    assert status(service, aid) == "active"
