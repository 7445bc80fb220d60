"""BILL-7: immediate upgrades with day-based proration."""


def ok(response):
    assert response["ok"] is True, response
    return response["data"]


def error_code(response):
    assert response["ok"] is False, response
    return response["error"]["code"]


def invoiced_subscription(service, account_id, plan="basic", start="2025-02-01"):
    sid = ok(service.subscribe({"account_id": account_id, "plan_code": plan, "start": start}))["subscription_id"]
    ok(service.generate_invoice({"subscription_id": sid, "on": start}))
    return sid


def test_upgrade_mid_period_for_a_german_customer(service, make_account):
    aid = make_account("Acme", "DE")
    sid = invoiced_subscription(service, aid)
    result = ok(service.change_plan({"subscription_id": sid, "plan_code": "pro", "on": "2025-02-22",
                                     "when": "immediate"}))  # fmt: skip
    assert result["proration"]["credit"] == "7.52"
    assert result["proration"]["charge"] == "12.58"
    assert result["effective_from"] == "2025-02-22"
    assert result["subscription"]["plan_code"] == "pro"
    invoice = ok(service.get_invoice({"number": result["proration"]["invoice_number"]}))
    assert [(l["kind"], l["description"], l["quantity"], l["amount"]) for l in invoice["lines"]] == [
        ("proration", "Unused time on Basic (2025-02-22 to 2025-02-28)", 1, "-7.52"),
        ("proration", "Remaining time on Pro (2025-02-22 to 2025-02-28)", 1, "12.58"),
    ]
    assert (invoice["subtotal"], invoice["tax"], invoice["total"]) == ("5.06", "0.96", "6.02")
    assert invoice["issued_on"] == "2025-02-22"
    assert invoice["due_on"] == "2025-03-08"
    assert invoice["period"] == {"start": "2025-02-22", "end": "2025-03-01"}
    # first invoice 35.82 + proration 6.02
    assert ok(service.get_balance({"account_id": aid}))["balance"] == "41.84"


def test_next_period_bills_the_new_plan_in_full(service, make_account):
    aid = make_account("Acme", "US", "USD")
    sid = invoiced_subscription(service, aid, plan="lite-usd", start="2025-04-01")
    result = ok(service.change_plan({"subscription_id": sid, "plan_code": "plus-usd", "on": "2025-04-11",
                                     "when": "immediate"}))  # fmt: skip
    # April has 30 days, 20 unused: 23.80 x 20/30 = 15.8666 -> 15.87; 41.00 x 20/30 = 27.3333 -> 27.33
    assert (result["proration"]["credit"], result["proration"]["charge"]) == ("15.87", "27.33")
    invoice = ok(service.get_invoice({"number": result["proration"]["invoice_number"]}))
    assert invoice["tax_lines"] == []
    assert invoice["total"] == "11.46"
    may = ok(service.generate_invoice({"subscription_id": sid, "on": "2025-05-01"}))
    assert [(l["kind"], l["amount"]) for l in may["lines"]] == [("plan", "41.00")]


def test_upgrade_on_the_first_day_prorates_the_whole_period(service, make_account):
    aid = make_account("Acme", "DE")
    sid = invoiced_subscription(service, aid)
    result = ok(service.change_plan({"subscription_id": sid, "plan_code": "pro", "on": "2025-02-01",
                                     "when": "immediate"}))  # fmt: skip
    assert (result["proration"]["credit"], result["proration"]["charge"]) == ("30.10", "50.30")


def test_immediate_changes_that_are_not_allowed(service, make_account):
    aid = make_account("Acme", "DE")
    sid = invoiced_subscription(service, aid, plan="pro")
    downgrade = {"subscription_id": sid, "plan_code": "basic", "on": "2025-02-10", "when": "immediate"}
    assert error_code(service.change_plan(downgrade)) == "invalid_plan_change"
    # the March period has not been invoiced yet
    not_invoiced = {"subscription_id": sid, "plan_code": "team", "on": "2025-03-05", "when": "immediate"}
    assert error_code(service.change_plan(not_invoiced)) == "invalid_plan_change"
    trial_sid = ok(service.subscribe({"account_id": aid, "plan_code": "team", "start": "2025-02-01"}))["subscription_id"]
    in_trial = {"subscription_id": trial_sid, "plan_code": "scale", "on": "2025-02-05", "when": "immediate"}
    assert error_code(service.change_plan(in_trial)) == "invalid_plan_change"
    sub = ok(service.get_subscription({"subscription_id": sid, "on": "2025-02-10"}))
    assert sub["plan_code"] == "pro"
