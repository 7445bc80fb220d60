"""Baseline, judged through the bridge: what the repository's tests/test_plans.py covers."""

from datetime import date


def test_plan_validation(subject, plans, eur):
    with subject.raises("plans.InvalidPlanError"):
        plans.Plan("Basic Plan", "Basic", eur("10.00"))
    with subject.raises("plans.InvalidPlanError"):
        plans.Plan("basic", "Basic", eur("0.00"))
    with subject.raises("plans.InvalidPlanError"):
        plans.Plan("basic", "Basic", eur("10.00"), trial_days=91)
    yearly = plans.Plan("basic", "Basic", eur("10.00"), interval="year")
    assert yearly.interval == plans.Interval.YEAR


def test_addon_pricing_and_limits(subject, plans, eur, cash):
    seats = plans.AddOn("seats", "Extra seats", eur("10.00"), max_quantity=50)
    assert cash(seats.price_for(0)) == "0.00 EUR"
    assert cash(seats.price_for(12)) == "120.00 EUR"
    with subject.raises("plans.QuantityError"):
        seats.price_for(51)
    with subject.raises("plans.QuantityError"):
        seats.price_for(-1)


def test_catalog_lookups(subject, plans, eur, cash, starter_catalog):
    catalog = starter_catalog
    assert cash(catalog.get_plan("pro").price) == "50.30 EUR"
    assert [p.code for p in catalog.plans("EUR")] == ["basic", "pro", "team", "annual"]
    with subject.raises("plans.PlanNotFoundError") as info:
        catalog.get_plan("gold")
    assert info.value.code == "plan_not_found"
    with subject.raises("plans.AddOnNotFoundError"):
        catalog.get_addon("printer")
    with subject.raises("plans.DuplicatePlanError"):
        catalog.add_plan(plans.Plan("pro", "Pro again", eur("1.00")))


def test_validate_addons(subject, starter_catalog):
    catalog = starter_catalog
    eur = catalog.get_plan("basic").currency
    usd = catalog.get_plan("starter-usd").currency
    assert catalog.validate_addons({"storage": 0, "seats": 3}, eur) == {"seats": 3}
    with subject.raises("money.CurrencyMismatchError"):
        catalog.validate_addons({"seats": 1}, usd)


def test_monthly_periods_keep_the_anchor_day(plans):
    anchor = date(2025, 1, 31)
    month = plans.Interval.MONTH
    starts = [plans.period_for(anchor, month, i).start for i in range(4)]
    assert starts == [date(2025, 1, 31), date(2025, 2, 28), date(2025, 3, 31), date(2025, 4, 30)]
    feb = plans.period_for(anchor, month, 1)
    assert (feb.start, feb.end) == (date(2025, 2, 28), date(2025, 3, 31))
    assert feb.days == 31
    assert plans.period_index_on(anchor, month, date(2025, 3, 30)) == 1
    assert plans.period_index_on(anchor, month, date(2025, 3, 31)) == 2


def test_yearly_periods_across_leap_years(plans):
    anchor = date(2024, 2, 29)
    year = plans.Interval.YEAR
    assert plans.period_for(anchor, year, 1).start == date(2025, 2, 28)
    assert plans.period_for(anchor, year, 4).start == date(2028, 2, 29)
    assert plans.period_for(anchor, year, 0).days == 365


def test_trial_delays_billing(subject, plans, starter_catalog):
    sub = plans.Subscription("SUB-1", "ACC-1", starter_catalog.get_plan("team"), date(2025, 3, 1))
    assert sub.trial_end == date(2025, 3, 15)
    assert sub.status_on(date(2025, 3, 10)).value == "trialing"
    assert sub.status_on(date(2025, 3, 15)).value == "active"
    with subject.raises("plans.NotBillableError"):
        sub.period_index_on(date(2025, 3, 14))
    assert sub.period(0).start == date(2025, 3, 15)


def test_scheduled_plan_change(subject, plans, starter_catalog):
    catalog = starter_catalog
    sub = plans.Subscription("SUB-1", "ACC-1", catalog.get_plan("basic"), date(2025, 2, 1))
    change = sub.schedule_plan_change(catalog.get_plan("pro"), date(2025, 2, 10))
    assert change.effective_from == date(2025, 3, 1)
    assert sub.plan_on(date(2025, 2, 28)).code == "basic"
    assert sub.plan_on(date(2025, 3, 1)).code == "pro"
    with subject.raises("plans.InvalidPlanChangeError"):
        sub.schedule_plan_change(catalog.get_plan("annual"), date(2025, 3, 5))
    with subject.raises("plans.InvalidPlanChangeError"):
        sub.schedule_plan_change(catalog.get_plan("pro"), date(2025, 3, 5))
