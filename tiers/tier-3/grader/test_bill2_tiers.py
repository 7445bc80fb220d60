"""BILL-2: graduated price tiers for add-ons (the tier class and its limit field are drawn)."""

import pytest


@pytest.fixture
def tier(plans, eur, params):
    """tier(limit, "8.00") -> a price tier of the subject's, built by keyword."""
    cls = getattr(plans, params["tier_class"])
    return lambda limit, price: cls(**{params["tier_limit"]: limit, "unit_price": eur(price)})


@pytest.fixture
def tiered_seats(plans, eur, tier):
    def make(tiers=None, **kwargs):
        if tiers is None:
            tiers = (tier(10, "8.00"), tier(50, "6.50"), tier(None, "5.00"))
        return plans.AddOn("seats", "Extra seats", eur("8.00"), tiers=tiers, **kwargs)

    return make


def test_graduated_prices(tiered_seats, cash):
    seats = tiered_seats()
    assert cash(seats.price_for(0)) == "0.00 EUR"
    assert cash(seats.price_for(10)) == "80.00 EUR"
    assert cash(seats.price_for(11)) == "86.50 EUR"
    assert cash(seats.price_for(60)) == "390.00 EUR"
    assert cash(seats.price_for(50)) == "340.00 EUR"


def test_invalid_tiers_are_refused(subject, money, plans, params, tier, tiered_seats):
    with subject.raises("plans.InvalidPlanError"):  # not ascending
        tiered_seats((tier(50, "6.50"), tier(10, "8.00"), tier(None, "5.00")))
    with subject.raises("plans.InvalidPlanError"):  # open-ended tier before the last
        tiered_seats((tier(None, "8.00"), tier(50, "6.50")))
    with subject.raises("plans.InvalidPlanError"):  # last tier not open-ended
        tiered_seats((tier(10, "8.00"), tier(50, "6.50")))
    dollars = getattr(plans, params["tier_class"])(None, money.Money.of("5.00", "USD"))
    with subject.raises("plans.InvalidPlanError"):  # other currency
        tiered_seats((tier(10, "8.00"), dollars))


def test_tiered_addon_still_enforces_max_quantity(subject, tiered_seats, cash):
    seats = tiered_seats(max_quantity=20)
    assert cash(seats.price_for(20)) == "145.00 EUR"
    with subject.raises("plans.QuantityError"):
        seats.price_for(21)


def test_invoice_line_uses_the_graduated_price(api, plans, eur, tiered_seats):
    catalog = plans.Catalog([plans.Plan("basic", "Basic", eur("30.10"))], [tiered_seats()])
    service = api.BillingService(catalog)
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


def test_equal_consecutive_limits_are_refused(subject, tier, tiered_seats, cash):
    with subject.raises("plans.InvalidPlanError"):
        tiered_seats((tier(10, "8.00"), tier(10, "6.50"), tier(None, "5.00")))
    with subject.raises("plans.InvalidPlanError"):
        tiered_seats((tier(10, "8.00"), tier(20, "6.50"), tier(20, "6.00"), tier(None, "5.00")))
    one_step = tiered_seats((tier(1, "9.00"), tier(2, "7.00"), tier(None, "5.00")))
    assert cash(one_step.price_for(3)) == "21.00 EUR"


def test_tier_limits_and_prices_are_checked_one_by_one(subject, plans, eur, params, tier, tiered_seats):
    with subject.raises("plans.InvalidPlanError"):  # a limit of 0 covers no unit
        tiered_seats((tier(0, "8.00"), tier(None, "5.00")))
    with subject.raises("plans.InvalidPlanError"):  # not a whole number
        tiered_seats((tier(10.5, "8.00"), tier(None, "5.00")))
    with subject.raises("plans.InvalidPlanError"):  # a tier price must be positive
        tiered_seats((tier(10, "8.00"), tier(None, "0.00")))
    with subject.raises("plans.InvalidPlanError"):
        tiered_seats((tier(10, "0.00"), tier(None, "5.00")))
    flat = plans.AddOn("seats", "Extra seats", eur("8.00"))
    assert subject.value(flat.tiers) == ()


def test_an_addon_has_at_most_the_allowed_number_of_tiers(subject, tier, tiered_seats, cash, params):
    most = params["addon_max_tiers"]
    widest = tiered_seats(tuple(tier(n, "9.00") for n in range(1, most)) + (tier(None, "5.00"),))
    assert cash(widest.price_for(most)) == f"{9 * (most - 1) + 5}.00 EUR"
    with subject.raises("plans.InvalidPlanError"):
        tiered_seats(tuple(tier(n, "9.00") for n in range(1, most + 1)) + (tier(None, "5.00"),))
