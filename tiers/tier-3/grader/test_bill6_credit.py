"""BILL-6: account credit is applied to new invoices (the ledger method's name and the invoice
response key are drawn)."""

from datetime import date
from decimal import Decimal


def ok(response):
    assert response["ok"] is True, response
    return response["data"]


def test_available_credit_on_the_ledger(ledger_pkg, money, params, cash):
    ledger = ledger_pkg.Ledger()
    aid = ledger.open_account("Acme", "ap@acme.test", "USD", "US").account_id
    available = getattr(ledger, params["credit_fn"])
    assert cash(available(aid)) == "0.00 USD"
    ledger.post_credit(aid, money.Money.of("30.00", "USD"), date(2025, 1, 1), "Goodwill")
    assert cash(available(aid)) == "30.00 USD"
    ledger.post_charge(aid, money.Money.of("45.00", "USD"), date(2025, 1, 2), "Invoice")
    assert cash(available(aid)) == "0.00 USD"


def test_credit_covers_invoices_until_used_up(service, make_account, params):
    key = params["credit_key"]
    aid = make_account("Acme", "US", "USD")
    ok(service.issue_credit({"account_id": aid, "amount": "30.00", "on": "2025-01-01", "reason": "outage"}))
    sid = ok(service.subscribe({"account_id": aid, "plan_code": "lite-usd", "start": "2025-01-01"}))["subscription_id"]
    first = ok(service.generate_invoice({"subscription_id": sid, "on": "2025-01-01"}))
    assert (first["total"], first[key], first["outstanding"], first["status"]) == (
        "23.80", "23.80", "0.00", "paid",
    )  # fmt: skip
    assert ok(service.get_balance({"account_id": aid}))["balance"] == "-6.20"
    second = ok(service.generate_invoice({"subscription_id": sid, "on": "2025-02-01"}))
    assert (second["total"], second[key], second["outstanding"], second["status"]) == (
        "23.80", "6.20", "17.60", "open",
    )  # fmt: skip
    assert ok(service.get_balance({"account_id": aid}))["balance"] == "17.60"
    charges = [e for e in service.ledger.entries(aid) if e.kind.value == "charge"]
    assert [e.reference for e in charges] == [first["number"], second["number"]]
    assert len(service.ledger.entries(aid)) == 3


def test_payments_are_limited_to_the_reduced_outstanding_amount(service, make_account, params):
    aid = make_account("Acme", "US", "USD")
    ok(service.record_payment({"account_id": aid, "amount": "10.00", "on": "2025-01-01"}))
    sid = ok(service.subscribe({"account_id": aid, "plan_code": "lite-usd", "start": "2025-01-01"}))["subscription_id"]
    invoice = ok(service.generate_invoice({"subscription_id": sid, "on": "2025-01-01"}))
    assert invoice[params["credit_key"]] == "10.00"
    assert invoice["outstanding"] == "13.80"
    payment = {"account_id": aid, "on": "2025-01-05", "invoice_number": invoice["number"]}
    too_much = service.record_payment({**payment, "amount": "23.80"})
    assert too_much["ok"] is False and too_much["error"]["code"] == "overpayment"
    ok(service.record_payment({**payment, "amount": "13.80"}))
    after = ok(service.get_invoice({"number": invoice["number"]}))
    assert (after["status"], after["outstanding"]) == ("paid", "0.00")
    assert ok(service.get_balance({"account_id": aid}))["balance"] == "0.00"


def test_covered_invoices_are_not_dunned_and_no_credit_means_zero(service, make_account, params):
    covered = make_account("Acme", "US", "USD")
    plain = make_account("Bolt", "DE")
    ok(service.issue_credit({"account_id": covered, "amount": "50.00", "on": "2025-01-01", "reason": "promo"}))
    sid = ok(service.subscribe({"account_id": covered, "plan_code": "lite-usd", "start": "2025-01-01"}))["subscription_id"]
    ok(service.generate_invoice({"subscription_id": sid, "on": "2025-01-01"}))
    sid2 = ok(service.subscribe({"account_id": plain, "plan_code": "basic", "start": "2025-01-01"}))["subscription_id"]
    invoice = ok(service.generate_invoice({"subscription_id": sid2, "on": "2025-01-01"}))
    assert (invoice[params["credit_key"]], invoice["outstanding"]) == ("0.00", "35.82")
    emails = ok(service.run_dunning({"on": "2025-01-20"}))["emails"]
    assert [e["invoice_number"] for e in emails] == [invoice["number"]]


def test_credit_below_the_minimum_stays_on_the_account(service, make_account, params):
    key, least = params["credit_key"], Decimal(params["credit_min"])
    small = make_account("Acme", "US", "USD")
    ok(service.issue_credit({"account_id": small, "amount": str(least - Decimal("0.01")), "on": "2025-01-01",
                             "reason": "rounding"}))  # fmt: skip
    sid = ok(service.subscribe({"account_id": small, "plan_code": "lite-usd", "start": "2025-01-01"}))["subscription_id"]
    invoice = ok(service.generate_invoice({"subscription_id": sid, "on": "2025-01-01"}))
    assert (invoice[key], invoice["outstanding"], invoice["status"]) == ("0.00", "23.80", "open")
    assert ok(service.get_balance({"account_id": small}))["balance"] == str(Decimal("23.80") - least + Decimal("0.01"))
    enough = make_account("Bolt", "US", "USD")
    ok(service.issue_credit({"account_id": enough, "amount": str(least), "on": "2025-01-01", "reason": "rounding"}))
    sid = ok(service.subscribe({"account_id": enough, "plan_code": "lite-usd", "start": "2025-01-01"}))["subscription_id"]
    invoice = ok(service.generate_invoice({"subscription_id": sid, "on": "2025-01-01"}))
    assert (invoice[key], invoice["outstanding"]) == (str(least), str(Decimal("23.80") - least))
