"""Baseline, judged through the bridge: what the repository's tests/test_api.py covers."""

import json

import pytest


def ok(response):
    assert response["ok"] is True, response
    return response["data"]


def error_code(response):
    assert response["ok"] is False, response
    return response["error"]["code"]


@pytest.fixture
def acme(starter_service):
    return ok(
        starter_service.create_account(
            {"name": "Acme GmbH", "email": "ap@acme.test", "currency": "EUR", "country": "DE"}
        )
    )


def test_create_and_get_account(starter_service, acme):
    service = starter_service
    assert acme["account_id"] == "ACC-0001"
    assert acme["status"] == "active"
    fetched = ok(service.get_account({"account_id": "ACC-0001"}))
    assert fetched["email"] == "ap@acme.test"
    assert error_code(service.get_account({"account_id": "ACC-0404"})) == "account_not_found"


def test_request_validation(starter_service):
    service = starter_service
    assert error_code(service.create_account({"name": "Acme"})) == "invalid_request"
    assert error_code(service.create_account("not a dict")) == "invalid_request"
    bad = {"name": "Acme", "email": "ap@acme.test", "currency": "XXX", "country": "DE"}
    assert error_code(service.create_account(bad)) == "unknown_currency"


def test_subscribe_and_invoice(starter_service, acme):
    service = starter_service
    sub = ok(
        service.subscribe(
            {"account_id": acme["account_id"], "plan_code": "basic", "start": "2025-02-01",
             "addons": {"seats": 2}}
        )
    )  # fmt: skip
    assert sub["status"] == "active"
    assert sub["current_period"] == {"start": "2025-02-01", "end": "2025-03-01"}
    invoice = ok(service.generate_invoice({"subscription_id": sub["subscription_id"], "on": "2025-02-01"}))
    assert invoice["subtotal"] == "50.10"
    assert invoice["tax"] == "9.52"
    assert invoice["total"] == "59.62"
    assert invoice["display_total"] == "\u20ac59.62"
    assert invoice["due_on"] == "2025-02-15"
    assert invoice["number"].startswith("INV-")
    assert ok(service.get_balance({"account_id": acme["account_id"]}))["balance"] == "59.62"
    assert json.loads(json.dumps(invoice)) == invoice


def test_subscription_errors(starter_service, acme):
    service = starter_service
    base = {"account_id": acme["account_id"], "start": "2025-02-01"}
    assert error_code(service.subscribe({**base, "plan_code": "gold"})) == "plan_not_found"
    assert error_code(service.subscribe({**base, "plan_code": "starter-usd"})) == "currency_mismatch"
    assert error_code(service.subscribe({**base, "plan_code": "basic", "addons": {"seats": 99}})) == (
        "invalid_quantity"
    )
    assert error_code(service.subscribe({**base, "plan_code": "basic", "start": "1st Feb"})) == (
        "invalid_request"
    )
    assert error_code(service.get_subscription({"subscription_id": "SUB-0404", "on": "2025-02-01"})) == (
        "subscription_not_found"
    )


def test_no_invoice_during_the_trial(starter_service, acme):
    service = starter_service
    sub = ok(service.subscribe({"account_id": acme["account_id"], "plan_code": "team", "start": "2025-03-01"}))
    assert sub["status"] == "trialing"
    assert sub["trial_end"] == "2025-03-15"
    response = service.generate_invoice({"subscription_id": sub["subscription_id"], "on": "2025-03-10"})
    assert error_code(response) == "not_billable"
    invoice = ok(service.generate_invoice({"subscription_id": sub["subscription_id"], "on": "2025-03-15"}))
    assert invoice["period"] == {"start": "2025-03-15", "end": "2025-04-15"}


def test_paying_an_invoice(starter_service, acme):
    service = starter_service
    sub = ok(service.subscribe({"account_id": acme["account_id"], "plan_code": "basic", "start": "2025-02-01"}))
    invoice = ok(service.generate_invoice({"subscription_id": sub["subscription_id"], "on": "2025-02-01"}))
    payment = {"account_id": acme["account_id"], "on": "2025-02-10", "invoice_number": invoice["number"]}
    assert error_code(service.record_payment({**payment, "amount": "99.00"})) == "overpayment"
    assert error_code(service.record_payment({**payment, "amount": "-1.00"})) == "invalid_request"
    paid = ok(service.record_payment({**payment, "amount": invoice["total"]}))
    assert paid["balance"] == "0.00"
    assert ok(service.get_invoice({"number": invoice["number"]}))["status"] == "paid"


def test_dunning_sends_each_stage_once(starter_service, acme):
    service = starter_service
    sub = ok(service.subscribe({"account_id": acme["account_id"], "plan_code": "basic", "start": "2025-02-01"}))
    invoice = ok(service.generate_invoice({"subscription_id": sub["subscription_id"], "on": "2025-02-01"}))
    assert ok(service.run_dunning({"on": "2025-02-15"}))["emails"] == []
    first = ok(service.run_dunning({"on": "2025-02-16"}))["emails"]
    assert [(e["stage"], e["invoice_number"], e["to"]) for e in first] == [
        ("reminder", invoice["number"], "ap@acme.test")
    ]
    assert ok(service.run_dunning({"on": "2025-02-17"}))["emails"] == []
    second = ok(service.run_dunning({"on": "2025-02-22"}))["emails"]
    assert [e["stage"] for e in second] == ["second_reminder"]
    assert second[0]["subject"] == f"Second reminder: invoice {invoice['number']} is 7 days overdue"


def test_scheduled_plan_change_bills_the_new_plan_next_period(starter_service, acme):
    service = starter_service
    sub = ok(service.subscribe({"account_id": acme["account_id"], "plan_code": "basic", "start": "2025-02-01"}))
    sid = sub["subscription_id"]
    ok(service.generate_invoice({"subscription_id": sid, "on": "2025-02-01"}))
    change = ok(service.change_plan({"subscription_id": sid, "plan_code": "pro", "on": "2025-02-10"}))
    assert change["effective_from"] == "2025-03-01"
    assert change["subscription"]["plan_code"] == "basic"
    march = ok(service.generate_invoice({"subscription_id": sid, "on": "2025-03-01"}))
    assert march["lines"][0]["amount"] == "50.30"
    assert march["lines"][0]["description"] == "Pro plan (2025-03-01 to 2025-03-31)"


def test_cancel_and_close(starter_service, acme):
    service = starter_service
    sub = ok(service.subscribe({"account_id": acme["account_id"], "plan_code": "basic", "start": "2025-02-01"}))
    sid = sub["subscription_id"]
    invoice = ok(service.generate_invoice({"subscription_id": sid, "on": "2025-02-01"}))
    ok(service.cancel_subscription({"subscription_id": sid, "on": "2025-03-01"}))
    assert error_code(service.generate_invoice({"subscription_id": sid, "on": "2025-03-01"})) == "not_billable"
    assert error_code(service.close_account({"account_id": acme["account_id"]})) == "account_not_settled"
    ok(service.record_payment({"account_id": acme["account_id"], "amount": invoice["total"], "on": "2025-02-05",
                               "invoice_number": invoice["number"]}))  # fmt: skip
    assert ok(service.close_account({"account_id": acme["account_id"]}))["status"] == "closed"
    assert error_code(
        service.subscribe({"account_id": acme["account_id"], "plan_code": "basic", "start": "2025-04-01"})
    ) == "account_closed"


def test_goodwill_credit(starter_service, acme):
    service = starter_service
    credit = ok(service.issue_credit({"account_id": acme["account_id"], "amount": "25.00", "on": "2025-02-01",
                                      "reason": "outage"}))  # fmt: skip
    assert credit["balance"] == "-25.00"
    assert error_code(service.issue_credit({"account_id": acme["account_id"], "amount": "5.00",
                                            "on": "2025-02-01"})) == "invalid_request"  # fmt: skip
