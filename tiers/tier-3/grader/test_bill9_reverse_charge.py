"""BILL-9: reverse-charge VAT for EU business customers outside Germany (the VAT id's length
limits and the reverse-charge line's description are drawn)."""

import pytest


def ok(response):
    assert response["ok"] is True, response
    return response["data"]


def error_code(response):
    assert response["ok"] is False, response
    return response["error"]["code"]


def first_invoice(service, account_id):
    sid = ok(service.subscribe({"account_id": account_id, "plan_code": "basic", "start": "2025-02-01"}))[
        "subscription_id"
    ]
    return ok(service.generate_invoice({"subscription_id": sid, "on": "2025-02-01"}))


def create(service, country, **extra):
    return service.create_account(
        {"name": "Client", "email": "ap@client.test", "currency": "EUR", "country": country, **extra}
    )


def test_french_business_customer_is_invoiced_without_vat(service, params):
    account = ok(create(service, "FR", vat_id="fr 1234 5678 901"))
    assert account["vat_id"] == "FR12345678901"
    assert ok(service.get_account({"account_id": account["account_id"]}))["vat_id"] == "FR12345678901"
    invoice = first_invoice(service, account["account_id"])
    assert [(t["description"], t["amount"]) for t in invoice["tax_lines"]] == [
        (params["reverse_charge_label"], "0.00")
    ]
    assert (invoice["subtotal"], invoice["tax"], invoice["total"]) == ("30.10", "0.00", "30.10")


def test_vat_is_still_charged_where_reverse_charge_does_not_apply(service):
    german = ok(create(service, "DE", vat_id="DE123456789"))
    assert german["vat_id"] == "DE123456789"
    invoice = first_invoice(service, german["account_id"])
    assert [(t["description"], t["amount"]) for t in invoice["tax_lines"]] == [("VAT 19%", "5.72")]
    consumer = ok(create(service, "FR"))
    assert consumer["vat_id"] is None
    invoice = first_invoice(service, consumer["account_id"])
    assert [(t["description"], t["amount"]) for t in invoice["tax_lines"]] == [("VAT 20%", "6.02")]
    dutch = ok(create(service, "NL", vat_id="NL123456789B01"))
    invoice = first_invoice(service, dutch["account_id"])
    assert invoice["tax"] == "0.00"


@pytest.mark.parametrize(
    ("country", "vat_id"),
    [("FR", "DE123456789"), ("FR", "FR123"), ("FR", "FR12345678901234567"), ("FR", "FR12-345678"),
     ("US", "US123456789"), ("GB", "GB123456789")],
    ids=["other-country-prefix", "too-short", "too-long", "bad-character", "non-eu-us", "non-eu-gb"],
)  # fmt: skip
def test_invalid_vat_ids(service, country, vat_id):
    assert error_code(create(service, country, vat_id=vat_id)) == "invalid_vat_id"
    assert error_code(service.get_account({"account_id": "ACC-0001"})) == "account_not_found"


def test_vat_id_length_limits(service, params):
    shortest, longest = params["vat_body_min"], params["vat_body_max"]

    def vat_id(length):
        return "FR" + ("1234567890AB" * 2)[:length]

    for refused in (7, shortest - 1, longest + 1):
        assert error_code(create(service, "FR", vat_id=vat_id(refused))) == "invalid_vat_id", refused
    for accepted in (shortest, longest):
        assert ok(create(service, "FR", vat_id=vat_id(accepted)))["vat_id"] == vat_id(accepted)
