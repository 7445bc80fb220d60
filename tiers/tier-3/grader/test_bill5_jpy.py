"""BILL-5: billing in Japanese yen, whole yen end to end."""

import pytest

from api import BillingService
from money import InvalidAmountError, Money, get_currency
from plans import AddOn, Catalog, Plan


def ok(response):
    assert response["ok"] is True, response
    return response["data"]


def test_jpy_currency_and_amounts():
    yen = get_currency("JPY")
    assert (yen.code, yen.minor_units, yen.symbol, yen.name) == ("JPY", 0, "\u00a5", "Japanese yen")
    assert str(Money.of("1234", "JPY")) == "1234 JPY"
    with pytest.raises(InvalidAmountError):
        Money.of("12.5", "JPY")
    assert Money.of("1234", "JPY").format() == "\u00a51,234"
    assert Money.of("-5", "JPY").format() == "-\u00a55"
    assert Money.of("1234.5", "USD").format() == "$1,234.50"


def test_jpy_rounding_goes_to_whole_yen():
    assert Money.of("1225", "JPY").multiply("0.10", mode="half_up") == Money.of("123", "JPY")
    assert Money.of("1225", "JPY").multiply("0.10") == Money.of("122", "JPY")


@pytest.fixture
def yen_service():
    catalog = Catalog(
        [Plan("jp-basic", "Basic", Money.of("4980", "JPY"))],
        [AddOn("jp-seats", "Extra seats", Money.of("245", "JPY"))],
    )
    return BillingService(catalog)


def test_japanese_invoice_end_to_end(yen_service):
    account = ok(yen_service.create_account(
        {"name": "Tanaka KK", "email": "ap@tanaka.test", "currency": "JPY", "country": "JP"}
    ))  # fmt: skip
    sub = ok(yen_service.subscribe({"account_id": account["account_id"], "plan_code": "jp-basic",
                                    "start": "2025-04-01", "addons": {"jp-seats": 1}}))  # fmt: skip
    invoice = ok(yen_service.generate_invoice({"subscription_id": sub["subscription_id"], "on": "2025-04-01"}))
    assert [(line["unit_price"], line["amount"]) for line in invoice["lines"]] == [
        ("4980", "4980"),
        ("245", "245"),
    ]
    assert [t["amount"] for t in invoice["tax_lines"]] == ["523"]
    assert (invoice["subtotal"], invoice["tax"], invoice["total"]) == ("5225", "523", "5748")
    assert invoice["display_total"] == "\u00a55,748"
    assert invoice["outstanding"] == "5748"
    balance = ok(yen_service.get_balance({"account_id": account["account_id"]}))
    assert (balance["currency"], balance["balance"]) == ("JPY", "5748")


def test_japanese_payments_are_whole_yen(yen_service):
    account = ok(yen_service.create_account(
        {"name": "Tanaka KK", "email": "ap@tanaka.test", "currency": "JPY", "country": "JP"}
    ))["account_id"]  # fmt: skip
    sub = ok(yen_service.subscribe({"account_id": account, "plan_code": "jp-basic", "start": "2025-04-01"}))
    invoice = ok(yen_service.generate_invoice({"subscription_id": sub["subscription_id"], "on": "2025-04-01"}))
    assert invoice["total"] == "5478"  # 4980 + 498 tax
    bad = yen_service.record_payment({"account_id": account, "amount": "100.5", "on": "2025-04-02"})
    assert bad["ok"] is False and bad["error"]["code"] == "invalid_request"
    paid = ok(yen_service.record_payment({"account_id": account, "amount": "5478", "on": "2025-04-02",
                                          "invoice_number": invoice["number"]}))  # fmt: skip
    assert paid["amount"] == "5478"
    assert paid["balance"] == "0"
    assert ok(yen_service.get_invoice({"number": invoice["number"]}))["amount_paid"] == "5478"
