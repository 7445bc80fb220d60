"""BILL-11: payments without an invoice number are allocated oldest invoice first (the two new
response keys are drawn)."""

from decimal import Decimal

import pytest


def ok(response):
    assert response["ok"] is True, response
    return response["data"]


@pytest.fixture
def keys(params):
    return params["allocations_key"], params["unapplied_key"]


def two_open_invoices(service, make_account):
    """Invoices of 35.82 each, due 2025-02-15 and 2025-03-15."""
    aid = make_account("Acme", "DE")
    sid = ok(service.subscribe({"account_id": aid, "plan_code": "basic", "start": "2025-02-01"}))["subscription_id"]
    first = ok(service.generate_invoice({"subscription_id": sid, "on": "2025-02-01"}))
    second = ok(service.generate_invoice({"subscription_id": sid, "on": "2025-03-01"}))
    return aid, first["number"], second["number"]


def invoice(service, number):
    data = ok(service.get_invoice({"number": number}))
    return data["status"], data["outstanding"]


def test_payment_settles_the_oldest_invoice_first(service, make_account, keys):
    allocations, unapplied = keys
    aid, first, second = two_open_invoices(service, make_account)
    paid = ok(service.record_payment({"account_id": aid, "amount": "50.00", "on": "2025-03-02"}))
    assert paid[allocations] == [
        {"invoice_number": first, "amount": "35.82"},
        {"invoice_number": second, "amount": "14.18"},
    ]
    assert paid[unapplied] == "0.00"
    assert paid["balance"] == "21.64"
    assert invoice(service, first) == ("paid", "0.00")
    assert invoice(service, second) == ("open", "21.64")
    assert len([e for e in service.ledger.entries(aid) if e.kind.value == "payment"]) == 1


def test_oldest_due_date_wins_over_issue_order(service, make_account, keys):
    allocations, _ = keys
    aid = make_account("Acme", "DE")
    sid = ok(service.subscribe({"account_id": aid, "plan_code": "basic", "start": "2025-02-01"}))["subscription_id"]
    march = ok(service.generate_invoice({"subscription_id": sid, "on": "2025-03-01"}))["number"]
    february = ok(service.generate_invoice({"subscription_id": sid, "on": "2025-02-01"}))["number"]
    paid = ok(service.record_payment({"account_id": aid, "amount": "10.00", "on": "2025-03-02"}))
    assert paid[allocations] == [{"invoice_number": february, "amount": "10.00"}]
    assert invoice(service, february) == ("open", "25.82")
    assert invoice(service, march) == ("open", "35.82")


def test_overpayment_stays_on_the_account(service, make_account, keys):
    allocations, unapplied = keys
    aid, first, second = two_open_invoices(service, make_account)
    paid = ok(service.record_payment({"account_id": aid, "amount": "100.00", "on": "2025-03-02"}))
    assert [a["amount"] for a in paid[allocations]] == ["35.82", "35.82"]
    assert paid[unapplied] == "28.36"
    assert paid["balance"] == "-28.36"
    assert invoice(service, second) == ("paid", "0.00")
    nothing_open = ok(service.record_payment({"account_id": aid, "amount": "5.00", "on": "2025-03-03"}))
    assert (nothing_open[allocations], nothing_open[unapplied]) == ([], "5.00")


def test_payment_for_a_named_invoice_reports_its_allocation(service, make_account, keys):
    allocations, unapplied = keys
    aid, first, second = two_open_invoices(service, make_account)
    paid = ok(service.record_payment({"account_id": aid, "amount": "5.00", "on": "2025-03-02",
                                      "invoice_number": second}))  # fmt: skip
    assert paid[allocations] == [{"invoice_number": second, "amount": "5.00"}]
    assert paid[unapplied] == "0.00"
    assert invoice(service, first) == ("open", "35.82")
    assert invoice(service, second) == ("open", "30.82")


def test_invoices_due_the_same_day_are_settled_in_issue_order(service, make_account, keys):
    allocations, _ = keys
    aid = make_account("Acme", "DE")
    basic = ok(service.subscribe({"account_id": aid, "plan_code": "basic", "start": "2025-02-01"}))["subscription_id"]
    pro = ok(service.subscribe({"account_id": aid, "plan_code": "pro", "start": "2025-02-01"}))["subscription_id"]
    first = ok(service.generate_invoice({"subscription_id": pro, "on": "2025-02-01"}))["number"]
    later = ok(service.generate_invoice({"subscription_id": basic, "on": "2025-02-01"}))["number"]
    paid = ok(service.record_payment({"account_id": aid, "amount": "70.00", "on": "2025-02-02"}))
    assert paid[allocations] == [
        {"invoice_number": first, "amount": "59.86"},
        {"invoice_number": later, "amount": "10.14"},
    ]


def test_one_payment_settles_at_most_the_allowed_number_of_invoices(service, make_account, keys, params):
    allocations, unapplied = keys
    most = params["allocation_max_invoices"]
    aid = make_account("Acme", "DE")
    sid = ok(service.subscribe({"account_id": aid, "plan_code": "basic", "start": "2023-01-01"}))["subscription_id"]
    numbers = [
        ok(service.generate_invoice({"subscription_id": sid, "on": f"{2023 + m // 12}-{m % 12 + 1:02d}-01"}))["number"]
        for m in range(most + 1)
    ]
    amount = Decimal("35.82") * (most + 1) + 1
    paid = ok(service.record_payment({"account_id": aid, "amount": str(amount), "on": "2025-03-02"}))
    assert paid[allocations] == [{"invoice_number": n, "amount": "35.82"} for n in numbers[:most]]
    assert paid[unapplied] == "36.82"
    assert paid["balance"] == "-1.00"
    assert invoice(service, numbers[-1]) == ("open", "35.82")
