"""BILL-8: coupons (the code length limits and the error code of an unknown coupon are drawn)."""

from decimal import Decimal

import pytest


def ok(response):
    assert response["ok"] is True, response
    return response["data"]


def error_code(response):
    assert response["ok"] is False, response
    return response["error"]["code"]


@pytest.fixture
def shop(api, plans, money, eur):
    catalog = plans.Catalog(
        [plans.Plan("basic", "Basic", eur("49.90")), plans.Plan("dollar", "Dollar", money.Money.of("10.00", "USD"))],
        [plans.AddOn("seats", "Extra seats", eur("10.00"))],
    )
    catalog.add_coupon(plans.Coupon("SAVE15", percent_off=Decimal("15"), duration_periods=2))
    catalog.add_coupon(plans.Coupon("FIFTYOFF", amount_off=eur("50.00")))
    catalog.add_coupon(plans.Coupon("ALLFREE", amount_off=eur("500.00")))
    service = api.BillingService(catalog)
    account = ok(service.create_account(
        {"name": "Acme", "email": "ap@acme.test", "currency": "EUR", "country": "DE"}
    ))["account_id"]  # fmt: skip
    return service, account


def test_percent_coupon_for_the_first_two_periods(shop):
    service, aid = shop
    sub = ok(service.subscribe({"account_id": aid, "plan_code": "basic", "start": "2025-02-01",
                                "addons": {"seats": 3}, "coupon": "SAVE15"}))  # fmt: skip
    assert sub["coupon"] == "SAVE15"
    sid = sub["subscription_id"]
    for day in ("2025-02-01", "2025-03-01"):
        invoice = ok(service.generate_invoice({"subscription_id": sid, "on": day}))
        assert [(l["kind"], l["description"], l["quantity"], l["amount"]) for l in invoice["lines"]][2:] == [
            ("discount", "Coupon SAVE15", 1, "-11.99")
        ]
        assert (invoice["subtotal"], invoice["tax"], invoice["total"]) == ("67.91", "12.90", "80.81")
    third = ok(service.generate_invoice({"subscription_id": sid, "on": "2025-04-01"}))
    assert [l["kind"] for l in third["lines"]] == ["plan", "addon"]
    assert third["total"] == "95.08"


def test_amount_coupons_never_exceed_the_subtotal(shop):
    service, aid = shop
    sid = ok(service.subscribe({"account_id": aid, "plan_code": "basic", "start": "2025-02-01",
                                "coupon": "FIFTYOFF"}))["subscription_id"]  # fmt: skip
    invoice = ok(service.generate_invoice({"subscription_id": sid, "on": "2025-02-01"}))
    assert invoice["lines"][-1]["amount"] == "-49.90"
    assert (invoice["subtotal"], invoice["tax"], invoice["total"], invoice["status"]) == (
        "0.00", "0.00", "0.00", "paid",
    )  # fmt: skip
    later = ok(service.generate_invoice({"subscription_id": sid, "on": "2026-01-01"}))
    assert later["lines"][-1]["amount"] == "-49.90"  # no duration: every period
    sid2 = ok(service.subscribe({"account_id": aid, "plan_code": "basic", "start": "2025-02-01",
                                 "addons": {"seats": 2}, "coupon": "FIFTYOFF"}))["subscription_id"]  # fmt: skip
    partly = ok(service.generate_invoice({"subscription_id": sid2, "on": "2025-02-01"}))
    assert (partly["lines"][-1]["amount"], partly["subtotal"], partly["total"]) == ("-50.00", "19.90", "23.68")


def test_subscribe_with_bad_coupons(shop, params):
    service, aid = shop
    base = {"account_id": aid, "plan_code": "basic", "start": "2025-02-01"}
    assert error_code(service.subscribe({**base, "coupon": "NOSUCH"})) == params["coupon_missing_code"]
    usd = ok(service.create_account({"name": "Bolt", "email": "ap@bolt.test", "currency": "USD",
                                     "country": "US"}))["account_id"]  # fmt: skip
    mismatch = {"account_id": usd, "plan_code": "dollar", "start": "2025-02-01", "coupon": "FIFTYOFF"}
    assert error_code(service.subscribe(mismatch)) == "currency_mismatch"
    plain = ok(service.subscribe(base))
    assert plain["coupon"] is None


def test_coupon_definitions_are_validated(subject, plans, eur, catalog, params):
    with subject.raises("plans.InvalidPlanError"):
        plans.Coupon("SAVE15")  # neither percent nor amount
    with subject.raises("plans.InvalidPlanError"):
        plans.Coupon("BOTH10", percent_off=Decimal("10"), amount_off=eur("5.00"))
    with subject.raises("plans.InvalidPlanError"):
        plans.Coupon("TOOMUCH", percent_off=Decimal("101"))
    with subject.raises("plans.InvalidPlanError"):
        plans.Coupon("NOTHING", percent_off=Decimal("0"))
    with subject.raises("plans.InvalidPlanError"):
        plans.Coupon("NOTHING", amount_off=eur("0.00"))
    with subject.raises("plans.InvalidPlanError"):
        plans.Coupon("save15", percent_off=Decimal("15"))
    with subject.raises("plans.InvalidPlanError"):
        plans.Coupon("NEVER", percent_off=Decimal("15"), duration_periods=0)
    catalog.add_coupon(plans.Coupon("WELCOME", percent_off=Decimal("100"), duration_periods=1))
    with subject.raises("plans.DuplicatePlanError"):
        catalog.add_coupon(plans.Coupon("WELCOME", amount_off=eur("1.00")))
    with subject.raises("plans.CouponNotFoundError") as info:
        catalog.get_coupon("MISSING")
    assert info.value.code == params["coupon_missing_code"]


def code_of(length):
    """An upper-case code of `length` letters and digits."""
    return ("SAVE" + "0123456789" * 3)[:length]


@pytest.mark.parametrize(
    "which", ["one-character", "one-below-the-minimum", "one-above-the-maximum"]
)
def test_coupon_codes_outside_the_length_limits_are_refused(subject, plans, params, which):
    length = {
        "one-character": 1,
        "one-below-the-minimum": params["coupon_min_len"] - 1,
        "one-above-the-maximum": params["coupon_max_len"] + 1,
    }[which]
    with subject.raises("plans.InvalidPlanError"):
        plans.Coupon(code_of(length), percent_off=Decimal("10"))


def test_coupon_codes_at_the_length_limits_are_accepted(plans, params):
    for length in (params["coupon_min_len"], params["coupon_max_len"]):
        code = code_of(length)
        assert plans.Coupon(code, percent_off=Decimal("10")).code == code
