"""BILL-2: graduated price tiers for add-ons."""

import pytest

from api import BillingService
from money import Money
from plans import AddOn, Catalog, InvalidPlanError, Plan


def eur(amount):
    return Money.of(amount, "EUR")


def tiered_seats(**kwargs):
    from plans import PriceTier

    tiers = kwargs.pop(
        "tiers",
        (PriceTier(10, eur("8.00")), PriceTier(50, eur("6.50")), PriceTier(None, eur("5.00"))),
    )
    return AddOn("seats", "Extra seats", eur("8.00"), tiers=tiers, **kwargs)


def test_graduated_prices():
    seats = tiered_seats()
    assert seats.price_for(0) == eur("0.00")
    assert seats.price_for(10) == eur("80.00")
    assert seats.price_for(11) == eur("86.50")
    assert seats.price_for(60) == eur("390.00")
    assert seats.price_for(50) == eur("340.00")


def test_invalid_tiers_are_refused():
    from plans import PriceTier

    with pytest.raises(InvalidPlanError):  # not ascending
        tiered_seats(tiers=(PriceTier(50, eur("6.50")), PriceTier(10, eur("8.00")), PriceTier(None, eur("5.00"))))
    with pytest.raises(InvalidPlanError):  # open-ended tier before the last
        tiered_seats(tiers=(PriceTier(None, eur("8.00")), PriceTier(50, eur("6.50"))))
    with pytest.raises(InvalidPlanError):  # last tier not open-ended
        tiered_seats(tiers=(PriceTier(10, eur("8.00")), PriceTier(50, eur("6.50"))))
    with pytest.raises(InvalidPlanError):  # other currency
        tiered_seats(tiers=(PriceTier(10, eur("8.00")), PriceTier(None, Money.of("5.00", "USD"))))


def test_tiered_addon_still_enforces_max_quantity():
    from plans import QuantityError

    seats = tiered_seats(max_quantity=20)
    assert seats.price_for(20) == eur("145.00")
    with pytest.raises(QuantityError):
        seats.price_for(21)


def test_invoice_line_uses_the_graduated_price():
    catalog = Catalog([Plan("basic", "Basic", eur("30.10"))], [tiered_seats()])
    service = BillingService(catalog)
    account = service.create_account(
        {"name": "Acme", "email": "ap@acme.test", "currency": "EUR", "country": "US"}
    )["data"]["account_id"]
    sub = service.subscribe(
        {"account_id": account, "plan_code": "basic", "start": "2025-02-01", "addons": {"seats": 60}}
    )["data"]
    invoice = service.generate_invoice({"subscription_id": sub["subscription_id"], "on": "2025-02-01"})
    assert invoice["ok"], invoice
    lines = invoice["data"]["lines"]
    assert [line["amount"] for line in lines] == ["30.10", "390.00"]
    assert lines[1]["quantity"] == 60
    assert invoice["data"]["total"] == "420.10"
