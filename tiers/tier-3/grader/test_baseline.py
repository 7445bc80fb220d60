"""Hidden baseline: behaviour of the starter that the sprint must not break."""

import json
from datetime import date


def ok(response):
    assert response["ok"] is True, response
    return response["data"]


def error_code(response):
    assert response["ok"] is False, response
    assert isinstance(response["error"]["message"], str)
    return response["error"]["code"]


def subscribe(service, aid, plan="basic", start="2025-02-01", **extra):
    return ok(service.subscribe({"account_id": aid, "plan_code": plan, "start": start, **extra}))[
        "subscription_id"
    ]


def test_flat_addon_pricing_is_unchanged(plans, eur, cash):
    addon = plans.AddOn("printer", "Printer", eur("2.50"), 10)
    assert cash(addon.price_for(7)) == "17.50 EUR"
    assert addon.max_quantity == 10
    assert plans.Plan("gold", "Gold", eur("9.00")).trial_days == 0


def test_money_rounding_and_formatting_in_cents(money, invoicing, eur, cash):
    assert cash(eur("0.20").fraction(1, 8)) == "0.02 EUR"  # 0.025 half-even
    assert cash(eur("0.20").fraction(1, 8, mode="half_up")) == "0.03 EUR"
    assert money.Money.of("1234.5", "USD").format() == "$1,234.50"
    assert money.Money.of("-0.5", "GBP").format() == "-\u00a30.50"
    (line,) = invoicing.tax_lines_for(eur("0.50"), "DE")
    assert cash(line.amount) == "0.10 EUR"


def test_country_tax_for_customers_without_vat_id(service, make_account):
    expected = {"DE": [("VAT 19%", "5.72")], "GB": [("VAT 20%", "6.02")], "CH": [("MWST 8.1%", "2.44")],
                "US": []}  # fmt: skip
    for country, lines in expected.items():
        aid = make_account(f"Client{country}", country)
        invoice = ok(service.generate_invoice({"subscription_id": subscribe(service, aid), "on": "2025-02-01"}))
        assert [(t["description"], t["amount"]) for t in invoice["tax_lines"]] == lines, country


def test_plain_invoice_amounts_and_ledger_charge(service, make_account, cash):
    aid = make_account("Acme", "DE")
    sid = subscribe(service, aid, addons={"seats": 3})
    invoice = ok(service.generate_invoice({"subscription_id": sid, "on": "2025-02-01"}))
    assert [l["kind"] for l in invoice["lines"]] == ["plan", "addon"]
    assert (invoice["subtotal"], invoice["tax"], invoice["total"]) == ("60.10", "11.42", "71.52")
    assert (invoice["outstanding"], invoice["amount_paid"], invoice["status"]) == ("71.52", "0.00", "open")
    assert invoice["display_total"] == "\u20ac71.52"
    assert ok(service.get_balance({"account_id": aid}))["balance"] == "71.52"
    entries = service.ledger.entries(aid)
    assert [(e.kind.value, cash(e.amount), e.reference) for e in entries] == [
        ("charge", "71.52 EUR", invoice["number"])
    ]


def test_invoice_numbers_are_unique_and_follow_issue_order(service, make_account):
    aid = make_account("Acme", "DE")
    sid = subscribe(service, aid)
    numbers = [
        ok(service.generate_invoice({"subscription_id": sid, "on": f"2025-0{m}-01"}))["number"]
        for m in range(2, 8)
    ]
    assert len(set(numbers)) == 6
    assert all(n.startswith("INV-") for n in numbers)
    assert numbers == sorted(numbers)
    assert ok(service.get_invoice({"number": numbers[3]}))["period"] == {"start": "2025-05-01", "end": "2025-06-01"}


def test_scheduled_plan_changes_are_unchanged(service, make_account):
    aid = make_account("Acme", "DE")
    sid = subscribe(service, aid, plan="pro")
    ok(service.generate_invoice({"subscription_id": sid, "on": "2025-02-01"}))
    change = ok(service.change_plan({"subscription_id": sid, "plan_code": "basic", "on": "2025-02-10"}))
    assert change["effective_from"] == "2025-03-01"
    assert change["subscription"]["plan_code"] == "pro"
    assert len(ok(service.list_invoices({"account_id": aid}))["invoices"]) == 1
    assert ok(service.get_balance({"account_id": aid}))["balance"] == "59.86"
    march = ok(service.generate_invoice({"subscription_id": sid, "on": "2025-03-01"}))
    assert march["lines"][0]["amount"] == "30.10"
    same = {"subscription_id": sid, "plan_code": "basic", "on": "2025-03-02"}
    assert error_code(service.change_plan(same)) == "invalid_plan_change"


def test_paying_a_named_invoice_touches_only_that_invoice(service, make_account):
    aid = make_account("Acme", "DE")
    sid = subscribe(service, aid)
    feb = ok(service.generate_invoice({"subscription_id": sid, "on": "2025-02-01"}))["number"]
    mar = ok(service.generate_invoice({"subscription_id": sid, "on": "2025-03-01"}))["number"]
    paid = ok(service.record_payment({"account_id": aid, "amount": "35.82", "on": "2025-03-05", "invoice_number": mar}))
    assert (paid["invoice_number"], paid["amount"], paid["balance"]) == (mar, "35.82", "35.82")
    assert ok(service.get_invoice({"number": mar}))["status"] == "paid"
    assert ok(service.get_invoice({"number": feb}))["status"] == "open"
    too_much = {"account_id": aid, "amount": "35.83", "on": "2025-03-05", "invoice_number": feb}
    assert error_code(service.record_payment(too_much)) == "overpayment"
    assert error_code(service.record_payment({**too_much, "invoice_number": mar})) == "invoice_not_open"


def test_dunning_stages_up_to_the_final_notice(service, make_account):
    aid = make_account("Acme", "DE")
    number = ok(service.generate_invoice({"subscription_id": subscribe(service, aid), "on": "2025-02-01"}))["number"]
    seen = []
    for day in ("2025-02-16", "2025-02-22", "2025-03-01", "2025-03-07"):
        seen += [(e["stage"], e["subject"]) for e in ok(service.run_dunning({"on": day}))["emails"]]
    assert seen == [
        ("reminder", f"Payment reminder: invoice {number}"),
        ("second_reminder", f"Second reminder: invoice {number} is 7 days overdue"),
        ("final_notice", f"Final notice: invoice {number}"),
    ]
    assert ok(service.get_account({"account_id": aid}))["status"] == "active"
    assert ok(service.subscribe({"account_id": aid, "plan_code": "pro", "start": "2025-03-07"}))


def test_closed_accounts_stay_closed(service, make_account):
    aid = make_account("Acme", "DE")
    ok(service.close_account({"account_id": aid}))
    assert error_code(service.subscribe({"account_id": aid, "plan_code": "basic", "start": "2025-02-01"})) == (
        "account_closed"
    )
    assert ok(service.get_account({"account_id": aid}))["status"] == "closed"
    assert error_code(service.record_payment({"account_id": aid, "amount": "1.00", "on": "2025-02-01"})) == (
        "account_closed"
    )


def test_ledger_postings_and_balances(ledger_pkg, eur, cash):
    ledger = ledger_pkg.Ledger()
    aid = ledger.open_account("Acme", "ap@acme.test", "EUR", "DE").account_id
    ledger.post_charge(aid, eur("10.00"), date(2025, 1, 1), "A")
    ledger.post_payment(aid, eur("4.00"), date(2025, 1, 2), "B")
    ledger.post_credit(aid, eur("1.00"), date(2025, 1, 3), "C")
    assert [cash(e.amount) for e in ledger.entries(aid)] == ["10.00 EUR", "-4.00 EUR", "-1.00 EUR"]
    assert cash(ledger.balance(aid)) == "5.00 EUR"
    assert cash(ledger.balance(aid, date(2025, 1, 1))) == "10.00 EUR"


def test_trials_and_cancellations(service, make_account):
    aid = make_account("Acme", "DE")
    sid = subscribe(service, aid, plan="team", start="2025-03-01")
    assert error_code(service.generate_invoice({"subscription_id": sid, "on": "2025-03-14"})) == "not_billable"
    invoice = ok(service.generate_invoice({"subscription_id": sid, "on": "2025-03-15"}))
    assert invoice["period"] == {"start": "2025-03-15", "end": "2025-04-15"}
    ok(service.cancel_subscription({"subscription_id": sid, "on": "2025-04-15"}))
    assert error_code(service.generate_invoice({"subscription_id": sid, "on": "2025-04-15"})) == "not_billable"


def test_responses_are_plain_json(service, make_account):
    aid = make_account("Acme", "DE")
    sid = subscribe(service, aid, addons={"seats": 1})
    responses = [
        service.get_account({"account_id": aid}),
        service.get_subscription({"subscription_id": sid, "on": "2025-02-01"}),
        service.generate_invoice({"subscription_id": sid, "on": "2025-02-01"}),
        service.record_payment({"account_id": aid, "amount": "1.00", "on": "2025-02-02"}),
        service.issue_credit({"account_id": aid, "amount": "1.00", "on": "2025-02-02", "reason": "x"}),
        service.run_dunning({"on": "2025-03-01"}),
        service.list_invoices({"account_id": aid}),
        service.get_balance({"account_id": aid}),
    ]
    for response in responses:
        assert response["ok"] is True, response
        assert json.loads(json.dumps(response)) == response
