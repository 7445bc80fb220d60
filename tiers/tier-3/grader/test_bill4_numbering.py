"""BILL-4: invoice numbers per calendar year (the year's width, the separator and the counter's
width are drawn)."""

import pytest


def ok(response):
    assert response["ok"] is True, response
    return response["data"]


@pytest.fixture
def number(params):
    """number(2025, 1) -> the invoice number the drawn format gives."""
    sep, digits, year_digits = params["invoice_year_sep"], params["invoice_digits"], params["invoice_year_digits"]
    return lambda year, counter: f"INV-{year % 10**year_digits:0{year_digits}d}{sep}{counter:0{digits}d}"


def test_numbers_restart_every_calendar_year(service, make_account, number):
    aid = make_account("Acme", "DE")
    first = ok(service.subscribe({"account_id": aid, "plan_code": "basic", "start": "2024-12-01"}))
    second = ok(service.subscribe({"account_id": aid, "plan_code": "pro", "start": "2024-12-15"}))
    numbers = [
        ok(service.generate_invoice({"subscription_id": first["subscription_id"], "on": "2024-12-01"}))["number"],
        ok(service.generate_invoice({"subscription_id": second["subscription_id"], "on": "2024-12-15"}))["number"],
        ok(service.generate_invoice({"subscription_id": first["subscription_id"], "on": "2025-01-01"}))["number"],
        ok(service.generate_invoice({"subscription_id": first["subscription_id"], "on": "2025-02-01"}))["number"],
    ]
    assert numbers == [number(2024, 1), number(2024, 2), number(2025, 1), number(2025, 2)]


def test_back_dated_invoices_continue_their_own_year(service, make_account, number, params):
    assert params["invoice_2025_1"] == number(2025, 1)  # the example the sprint shows
    aid = make_account("Acme", "DE")
    sub = ok(service.subscribe({"account_id": aid, "plan_code": "basic", "start": "2024-11-30"}))
    sid = sub["subscription_id"]
    assert ok(service.generate_invoice({"subscription_id": sid, "on": "2025-01-30"}))["number"] == number(2025, 1)
    late = ok(service.generate_invoice({"subscription_id": sid, "on": "2024-12-31"}))
    assert late["number"] == number(2024, 1)
    assert ok(service.generate_invoice({"subscription_id": sid, "on": "2024-11-30"}))["number"] == number(2024, 2)


def test_lookups_and_payments_use_the_new_numbers(service, make_account, number):
    aid = make_account("Acme", "US")
    sub = ok(service.subscribe({"account_id": aid, "plan_code": "basic", "start": "2026-03-01"}))
    invoice = ok(service.generate_invoice({"subscription_id": sub["subscription_id"], "on": "2026-03-01"}))
    expected = number(2026, 1)
    assert invoice["number"] == expected
    assert ok(service.get_invoice({"number": expected}))["total"] == "30.10"
    paid = ok(service.record_payment({"account_id": aid, "amount": "30.10", "on": "2026-03-02",
                                      "invoice_number": expected}))  # fmt: skip
    assert paid["balance"] == "0.00"
    assert ok(service.get_invoice({"number": expected}))["status"] == "paid"


def test_numbers_are_never_reused_when_the_years_interleave(service, make_account, number):
    aid = make_account("Acme", "DE")
    sub = ok(service.subscribe({"account_id": aid, "plan_code": "basic", "start": "2024-10-01"}))
    sid = sub["subscription_id"]
    issued = [
        ok(service.generate_invoice({"subscription_id": sid, "on": on}))["number"]
        for on in ("2024-10-01", "2024-11-01", "2025-01-01", "2024-12-01", "2025-02-01")
    ]
    assert issued == [number(2024, 1), number(2024, 2), number(2025, 1), number(2024, 3), number(2025, 2)]
