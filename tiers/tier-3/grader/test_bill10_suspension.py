"""BILL-10: accounts are suspended after 21 days of non-payment."""


def ok(response):
    assert response["ok"] is True, response
    return response["data"]


def error_code(response):
    assert response["ok"] is False, response
    return response["error"]["code"]


def overdue_account(service, make_account):
    """A German account with one 35.82 invoice issued 2025-02-01, due 2025-02-15."""
    aid = make_account("Acme", "DE")
    sid = ok(service.subscribe({"account_id": aid, "plan_code": "basic", "start": "2025-02-01"}))["subscription_id"]
    invoice = ok(service.generate_invoice({"subscription_id": sid, "on": "2025-02-01"}))
    return aid, sid, invoice


def status(service, aid):
    return ok(service.get_account({"account_id": aid}))["status"]


def test_suspension_stage_at_21_days(service, make_account):
    aid, _, invoice = overdue_account(service, make_account)
    ok(service.run_dunning({"on": "2025-03-07"}))  # 20 days: final notice
    assert status(service, aid) == "active"
    emails = ok(service.run_dunning({"on": "2025-03-08"}))["emails"]
    assert [(e["stage"], e["invoice_number"], e["to"]) for e in emails] == [
        ("suspension", invoice["number"], "ap@acme.test")
    ]
    assert emails[0]["subject"] == f"Account suspended: invoice {invoice['number']} is 21 days overdue"
    assert emails[0]["body"].startswith("Hello Acme,")
    assert "Amount outstanding: \u20ac35.82" in emails[0]["body"]
    assert status(service, aid) == "suspended"
    assert ok(service.run_dunning({"on": "2025-03-09"}))["emails"] == []


def test_suspended_accounts_take_no_new_business(service, make_account):
    aid, sid, _ = overdue_account(service, make_account)
    ok(service.run_dunning({"on": "2025-03-20"}))
    assert status(service, aid) == "suspended"
    new_sub = {"account_id": aid, "plan_code": "pro", "start": "2025-03-20"}
    assert error_code(service.subscribe(new_sub)) == "account_suspended"
    change = {"subscription_id": sid, "plan_code": "pro", "on": "2025-03-20"}
    assert error_code(service.change_plan(change)) == "account_suspended"
    march = ok(service.generate_invoice({"subscription_id": sid, "on": "2025-03-01"}))
    assert march["total"] == "35.82"
    credit = ok(service.issue_credit({"account_id": aid, "amount": "1.00", "on": "2025-03-20", "reason": "x"}))
    assert credit["balance"] == "70.64"
    assert status(service, aid) == "suspended"


def test_settling_the_balance_lifts_the_suspension(service, make_account):
    aid, _, invoice = overdue_account(service, make_account)
    ok(service.run_dunning({"on": "2025-03-08"}))
    ok(service.record_payment({"account_id": aid, "amount": "20.00", "on": "2025-03-09",
                               "invoice_number": invoice["number"]}))  # fmt: skip
    assert status(service, aid) == "suspended"
    ok(service.record_payment({"account_id": aid, "amount": "15.82", "on": "2025-03-10",
                               "invoice_number": invoice["number"]}))  # fmt: skip
    assert status(service, aid) == "active"
    assert ok(service.subscribe({"account_id": aid, "plan_code": "pro", "start": "2025-03-10"}))


def test_a_credit_can_lift_the_suspension_too(service, make_account):
    aid, _, _ = overdue_account(service, make_account)
    ok(service.run_dunning({"on": "2025-04-01"}))
    assert status(service, aid) == "suspended"
    ok(service.issue_credit({"account_id": aid, "amount": "40.00", "on": "2025-04-02", "reason": "settlement"}))
    assert status(service, aid) == "active"
