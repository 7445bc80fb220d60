"""BILL-7: immediate upgrades with day-based proration (the rounding of credit and charge and the
proration invoice's payment terms are drawn)."""

from datetime import date, timedelta
from decimal import ROUND_HALF_EVEN, ROUND_HALF_UP, Decimal

ROUNDING = {"half_even": ROUND_HALF_EVEN, "half_up": ROUND_HALF_UP}


def ok(response):
    assert response["ok"] is True, response
    return response["data"]


def error_code(response):
    assert response["ok"] is False, response
    return response["error"]["code"]


def prorate(price, unused, days, params):
    """price × unused / days, rounded to the cent as drawn, as a string."""
    exact = Decimal(price) * unused / days
    return str(exact.quantize(Decimal("0.01"), ROUNDING[params["proration_rounding"]]))


def due(on, params):
    return (date.fromisoformat(on) + timedelta(days=params["proration_due_days"])).isoformat()


def invoiced_subscription(service, account_id, plan="basic", start="2025-02-01"):
    sid = ok(service.subscribe({"account_id": account_id, "plan_code": plan, "start": start}))["subscription_id"]
    ok(service.generate_invoice({"subscription_id": sid, "on": start}))
    return sid


def test_upgrade_mid_period_for_a_german_customer(service, make_account, params):
    credit, charge = prorate("30.10", 7, 28, params), prorate("50.30", 7, 28, params)
    net = Decimal(charge) - Decimal(credit)
    vat = (net * Decimal("0.19")).quantize(Decimal("0.01"), ROUND_HALF_UP)
    total = net + vat
    assert (credit, charge, str(total)) == (
        params["proration_example_credit"], params["proration_example_charge"], params["proration_example_total"],
    )  # fmt: skip
    aid = make_account("Acme", "DE")
    sid = invoiced_subscription(service, aid)
    result = ok(service.change_plan({"subscription_id": sid, "plan_code": "pro", "on": "2025-02-22",
                                     "when": "immediate"}))  # fmt: skip
    assert result["proration"]["credit"] == credit
    assert result["proration"]["charge"] == charge
    assert result["effective_from"] == "2025-02-22"
    assert result["subscription"]["plan_code"] == "pro"
    invoice = ok(service.get_invoice({"number": result["proration"]["invoice_number"]}))
    assert [(l["kind"], l["description"], l["quantity"], l["amount"]) for l in invoice["lines"]] == [
        ("proration", "Unused time on Basic (2025-02-22 to 2025-02-28)", 1, f"-{credit}"),
        ("proration", "Remaining time on Pro (2025-02-22 to 2025-02-28)", 1, charge),
    ]
    assert (invoice["subtotal"], invoice["tax"], invoice["total"]) == (str(net), str(vat), str(total))
    assert invoice["issued_on"] == "2025-02-22"
    assert invoice["due_on"] == due("2025-02-22", params) == params["proration_example_due"]
    assert invoice["period"] == {"start": "2025-02-22", "end": "2025-03-01"}
    # first invoice 35.82 + the proration invoice
    assert ok(service.get_balance({"account_id": aid}))["balance"] == str(Decimal("35.82") + total)


def test_next_period_bills_the_new_plan_in_full(service, make_account, params):
    aid = make_account("Acme", "US", "USD")
    sid = invoiced_subscription(service, aid, plan="lite-usd", start="2025-04-01")
    result = ok(service.change_plan({"subscription_id": sid, "plan_code": "plus-usd", "on": "2025-04-11",
                                     "when": "immediate"}))  # fmt: skip
    # April has 30 days, 20 unused: 23.80 x 20/30 = 15.8666 -> 15.87; 41.00 x 20/30 = 27.3333 -> 27.33
    assert (result["proration"]["credit"], result["proration"]["charge"]) == ("15.87", "27.33")
    invoice = ok(service.get_invoice({"number": result["proration"]["invoice_number"]}))
    assert invoice["tax_lines"] == []
    assert invoice["total"] == "11.46"
    assert invoice["due_on"] == due("2025-04-11", params)
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


def test_a_plan_of_the_same_price_is_not_an_upgrade(service, make_account):
    aid = make_account("Acme", "DE")
    sid = invoiced_subscription(service, aid)  # Basic 30.10
    same_price = {"subscription_id": sid, "plan_code": "classic", "on": "2025-02-10", "when": "immediate"}
    assert error_code(service.change_plan(same_price)) == "invalid_plan_change"
    sub = ok(service.get_subscription({"subscription_id": sid, "on": "2025-02-10"}))
    assert sub["plan_code"] == "basic"
    assert len(ok(service.list_invoices({"account_id": aid}))["invoices"]) == 1
    assert ok(service.get_balance({"account_id": aid}))["balance"] == "35.82"
    upgrade = {**same_price, "plan_code": "pro"}
    assert ok(service.change_plan(upgrade))["subscription"]["plan_code"] == "pro"


def test_add_ons_are_not_prorated(service, make_account, params):
    aid = make_account("Acme", "US")
    sid = ok(service.subscribe({"account_id": aid, "plan_code": "basic", "start": "2025-02-01",
                                "addons": {"seats": 3}}))["subscription_id"]  # fmt: skip
    ok(service.generate_invoice({"subscription_id": sid, "on": "2025-02-01"}))
    result = ok(service.change_plan({"subscription_id": sid, "plan_code": "pro", "on": "2025-02-22",
                                     "when": "immediate"}))  # fmt: skip
    invoice = ok(service.get_invoice({"number": result["proration"]["invoice_number"]}))
    credit, charge = prorate("30.10", 7, 28, params), prorate("50.30", 7, 28, params)
    assert [(l["kind"], l["amount"]) for l in invoice["lines"]] == [("proration", f"-{credit}"), ("proration", charge)]
    assert invoice["total"] == str(Decimal(charge) - Decimal(credit))
