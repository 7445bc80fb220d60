"""BILL-4: invoice numbers per calendar year."""


def ok(response):
    assert response["ok"] is True, response
    return response["data"]


def test_numbers_restart_every_calendar_year(service, make_account):
    aid = make_account("Acme", "DE")
    first = ok(service.subscribe({"account_id": aid, "plan_code": "basic", "start": "2024-12-01"}))
    second = ok(service.subscribe({"account_id": aid, "plan_code": "pro", "start": "2024-12-15"}))
    numbers = [
        ok(service.generate_invoice({"subscription_id": first["subscription_id"], "on": "2024-12-01"}))["number"],
        ok(service.generate_invoice({"subscription_id": second["subscription_id"], "on": "2024-12-15"}))["number"],
        ok(service.generate_invoice({"subscription_id": first["subscription_id"], "on": "2025-01-01"}))["number"],
        ok(service.generate_invoice({"subscription_id": first["subscription_id"], "on": "2025-02-01"}))["number"],
    ]
    assert numbers == ["INV-2024-00001", "INV-2024-00002", "INV-2025-00001", "INV-2025-00002"]


def test_back_dated_invoices_continue_their_own_year(service, make_account):
    aid = make_account("Acme", "DE")
    sub = ok(service.subscribe({"account_id": aid, "plan_code": "basic", "start": "2024-11-30"}))
    sid = sub["subscription_id"]
    assert ok(service.generate_invoice({"subscription_id": sid, "on": "2025-01-30"}))["number"] == "INV-2025-00001"
    late = ok(service.generate_invoice({"subscription_id": sid, "on": "2024-12-31"}))
    assert late["number"] == "INV-2024-00001"
    assert ok(service.generate_invoice({"subscription_id": sid, "on": "2024-11-30"}))["number"] == "INV-2024-00002"


def test_lookups_and_payments_use_the_new_numbers(service, make_account):
    aid = make_account("Acme", "US")
    sub = ok(service.subscribe({"account_id": aid, "plan_code": "basic", "start": "2026-03-01"}))
    invoice = ok(service.generate_invoice({"subscription_id": sub["subscription_id"], "on": "2026-03-01"}))
    assert invoice["number"] == "INV-2026-00001"
    assert ok(service.get_invoice({"number": "INV-2026-00001"}))["total"] == "30.10"
    paid = ok(service.record_payment({"account_id": aid, "amount": "30.10", "on": "2026-03-02",
                                      "invoice_number": "INV-2026-00001"}))  # fmt: skip
    assert paid["balance"] == "0.00"
    assert ok(service.get_invoice({"number": "INV-2026-00001"}))["status"] == "paid"
