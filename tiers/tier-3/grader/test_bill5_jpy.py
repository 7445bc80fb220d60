"""BILL-5: billing in Japanese yen, whole yen end to end (the yen's symbol and the rounding of
tax on yen amounts are drawn)."""

from decimal import ROUND_DOWN, ROUND_HALF_DOWN, ROUND_HALF_EVEN, ROUND_HALF_UP, ROUND_UP, Decimal

import pytest

TAX_ROUNDING = {
    "half_up": ROUND_HALF_UP,
    "half_even": ROUND_HALF_EVEN,
    "half_down": ROUND_HALF_DOWN,
    "down": ROUND_DOWN,
    "up": ROUND_UP,
}


def ok(response):
    assert response["ok"] is True, response
    return response["data"]


def yen_tax(subtotal, params):
    """10% consumption tax on a whole-yen subtotal, rounded as drawn."""
    return (Decimal(subtotal) * Decimal("0.10")).quantize(Decimal(1), TAX_ROUNDING[params["yen_tax_rounding"]])


def test_jpy_currency_and_amounts(subject, money, params, cash):
    symbol = params["yen_symbol"]
    yen = money.get_currency("JPY")
    assert (yen.code, yen.minor_units, yen.symbol, yen.name) == ("JPY", 0, symbol, "Japanese yen")
    assert subject.str(money.Money.of("1234", "JPY")) == "1234 JPY"
    assert cash(money.Money.of("1234", "JPY")) == "1234 JPY"
    with subject.raises("money.InvalidAmountError"):
        money.Money.of("12.5", "JPY")
    assert money.Money.of("1234", "JPY").format() == f"{symbol}1,234"
    assert money.Money.of("-5", "JPY").format() == f"-{symbol}5"
    assert money.Money.of("1234.5", "USD").format() == "$1,234.50"


def test_jpy_rounding_goes_to_whole_yen(money, cash):
    assert cash(money.Money.of("1225", "JPY").multiply("0.10", mode="half_up")) == "123 JPY"
    assert cash(money.Money.of("1225", "JPY").multiply("0.10")) == "122 JPY"
    assert cash(money.Money.of("1000", "JPY").fraction(1, 3)) == "333 JPY"


@pytest.fixture
def yen_service(api, plans, money):
    catalog = plans.Catalog(
        [plans.Plan("jp-basic", "Basic", money.Money.of("4980", "JPY"))],
        [plans.AddOn("jp-seats", "Extra seats", money.Money.of("245", "JPY"))],
    )
    return api.BillingService(catalog)


def test_japanese_invoice_end_to_end(yen_service, params):
    tax = yen_tax(5225, params)
    total = 5225 + tax
    assert (str(tax), str(total)) == (params["yen_example_tax"], params["yen_example_total"])
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
    assert [t["amount"] for t in invoice["tax_lines"]] == [str(tax)]
    assert (invoice["subtotal"], invoice["tax"], invoice["total"]) == ("5225", str(tax), str(total))
    assert invoice["display_total"] == f"{params['yen_symbol']}{total:,}"
    assert invoice["outstanding"] == str(total)
    balance = ok(yen_service.get_balance({"account_id": account["account_id"]}))
    assert (balance["currency"], balance["balance"]) == ("JPY", str(total))


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


def test_yen_tax_follows_the_drawn_rounding_rule(api, plans, money, params):
    """Half a yen below and above an even yen, and fractions under and over a half: together
    they tell every pair of rounding rules apart."""
    prices = [5225, 5215, 5223, 5227]
    yen_plans = [plans.Plan(f"jp-{p}", "Basic", money.Money.of(str(p), "JPY")) for p in prices]
    catalog = plans.Catalog([*yen_plans, plans.Plan("gb-3050", "Basic", money.Money.of("30.50", "GBP"))], [])
    service = api.BillingService(catalog)
    account = ok(service.create_account(
        {"name": "Tanaka KK", "email": "ap@tanaka.test", "currency": "JPY", "country": "JP"}
    ))["account_id"]  # fmt: skip
    taxes = []
    for price in prices:
        sub = ok(service.subscribe({"account_id": account, "plan_code": f"jp-{price}", "start": "2025-04-01"}))
        invoice = ok(service.generate_invoice({"subscription_id": sub["subscription_id"], "on": "2025-04-01"}))
        taxes.append(invoice["tax"])
    assert taxes == [str(yen_tax(price, params)) for price in prices]
    assert taxes[1:] == [params["yen_example_tax_5215"], params["yen_example_tax_5223"], params["yen_example_tax_5227"]]
    # Other currencies keep half-up to the cent: 19% of 30.50 is 5.795.
    pounds = ok(service.create_account(
        {"name": "Moss Ltd", "email": "ap@moss.test", "currency": "GBP", "country": "DE"}
    ))["account_id"]  # fmt: skip
    sub = ok(service.subscribe({"account_id": pounds, "plan_code": "gb-3050", "start": "2025-04-01"}))
    invoice = ok(service.generate_invoice({"subscription_id": sub["subscription_id"], "on": "2025-04-01"}))
    assert invoice["tax"] == "5.80"
