from datetime import date

import pytest

from money import CurrencyMismatchError, Money
from plans import (
    AddOn,
    AddOnNotFoundError,
    BillingPeriod,
    DuplicatePlanError,
    Interval,
    InvalidPlanChangeError,
    InvalidPlanError,
    NotBillableError,
    Plan,
    PlanNotFoundError,
    QuantityError,
    Subscription,
    SubscriptionStatus,
    period_for,
    period_index_on,
)


def test_plan_validation():
    with pytest.raises(InvalidPlanError):
        Plan("Basic Plan", "Basic", Money.of("10.00", "EUR"))
    with pytest.raises(InvalidPlanError):
        Plan("basic", "Basic", Money.of("0.00", "EUR"))
    with pytest.raises(InvalidPlanError):
        Plan("basic", "Basic", Money.of("10.00", "EUR"), trial_days=91)
    assert Plan("basic", "Basic", Money.of("10.00", "EUR"), interval="year").interval is Interval.YEAR


def test_addon_pricing_and_limits():
    seats = AddOn("seats", "Extra seats", Money.of("10.00", "EUR"), max_quantity=50)
    assert seats.price_for(0) == Money.of("0.00", "EUR")
    assert seats.price_for(12) == Money.of("120.00", "EUR")
    with pytest.raises(QuantityError):
        seats.price_for(51)
    with pytest.raises(QuantityError):
        seats.price_for(-1)


def test_catalog_lookups(catalog):
    assert catalog.get_plan("pro").price == Money.of("50.30", "EUR")
    assert [p.code for p in catalog.plans("EUR")] == ["basic", "pro", "team", "annual"]
    with pytest.raises(PlanNotFoundError) as info:
        catalog.get_plan("gold")
    assert info.value.code == "plan_not_found"
    with pytest.raises(AddOnNotFoundError):
        catalog.get_addon("printer")
    with pytest.raises(DuplicatePlanError):
        catalog.add_plan(Plan("pro", "Pro again", Money.of("1.00", "EUR")))


def test_validate_addons(catalog):
    eur = catalog.get_plan("basic").currency
    usd = catalog.get_plan("starter-usd").currency
    assert catalog.validate_addons({"storage": 0, "seats": 3}, eur) == {"seats": 3}
    with pytest.raises(CurrencyMismatchError):
        catalog.validate_addons({"seats": 1}, usd)


def test_monthly_periods_keep_the_anchor_day():
    anchor = date(2025, 1, 31)
    starts = [period_for(anchor, Interval.MONTH, i).start for i in range(4)]
    assert starts == [date(2025, 1, 31), date(2025, 2, 28), date(2025, 3, 31), date(2025, 4, 30)]
    feb = period_for(anchor, Interval.MONTH, 1)
    assert feb == BillingPeriod(date(2025, 2, 28), date(2025, 3, 31))
    assert feb.days == 31
    assert period_index_on(anchor, Interval.MONTH, date(2025, 3, 30)) == 1
    assert period_index_on(anchor, Interval.MONTH, date(2025, 3, 31)) == 2


def test_yearly_periods_across_leap_years():
    anchor = date(2024, 2, 29)
    assert period_for(anchor, Interval.YEAR, 1).start == date(2025, 2, 28)
    assert period_for(anchor, Interval.YEAR, 4).start == date(2028, 2, 29)
    assert period_for(anchor, Interval.YEAR, 0).days == 365


def test_trial_delays_billing(catalog):
    sub = Subscription("SUB-1", "ACC-1", catalog.get_plan("team"), date(2025, 3, 1))
    assert sub.trial_end == date(2025, 3, 15)
    assert sub.status_on(date(2025, 3, 10)) is SubscriptionStatus.TRIALING
    assert sub.status_on(date(2025, 3, 15)) is SubscriptionStatus.ACTIVE
    with pytest.raises(NotBillableError):
        sub.period_index_on(date(2025, 3, 14))
    assert sub.period(0).start == date(2025, 3, 15)


def test_scheduled_plan_change(catalog):
    sub = Subscription("SUB-1", "ACC-1", catalog.get_plan("basic"), date(2025, 2, 1))
    change = sub.schedule_plan_change(catalog.get_plan("pro"), date(2025, 2, 10))
    assert change.effective_from == date(2025, 3, 1)
    assert sub.plan_on(date(2025, 2, 28)).code == "basic"
    assert sub.plan_on(date(2025, 3, 1)).code == "pro"
    with pytest.raises(InvalidPlanChangeError):
        sub.schedule_plan_change(catalog.get_plan("annual"), date(2025, 3, 5))
    with pytest.raises(InvalidPlanChangeError):
        sub.schedule_plan_change(catalog.get_plan("pro"), date(2025, 3, 5))
