"""The grader's fixtures, built in the subject through the bridge.

The judge never imports the billing packages: every domain object below lives in the subject and
is a remote reference here. Plain results (the api's dicts, strings, Decimals, dates) arrive as
values; `cash(ref)` reads a Money as "12.50 EUR" so that a test compares plain strings, never
objects of the graded code.
"""

import pytest


@pytest.fixture
def money(subject):
    return subject.module("money")


@pytest.fixture
def plans(subject):
    return subject.module("plans")


@pytest.fixture
def ledger_pkg(subject):
    return subject.module("ledger")


@pytest.fixture
def invoicing(subject):
    return subject.module("invoicing")


@pytest.fixture
def notify(subject):
    return subject.module("notify")


@pytest.fixture
def api(subject):
    return subject.module("api")


@pytest.fixture
def eur(money):
    """eur("12.50") -> a Money of the subject's."""
    return lambda amount: money.Money.of(amount, "EUR")


@pytest.fixture
def cash(subject):
    """cash(money_ref) -> "12.50 EUR": a Money of the subject's as a plain string."""

    def read(ref):
        value = subject.value(ref)
        return f"{value.amount} {value.currency.code}"

    return read


@pytest.fixture
def catalog(money, plans):
    """The grader's own catalog: EUR plans Basic 30.10, Classic 30.10 (same price as Basic),
    Pro 50.30, Team 99.00 (14-day trial), Scale 149.00; USD plans Lite 23.80 and Plus 41.00;
    a capped 10.00 EUR seat add-on."""

    def price(amount, currency="EUR"):
        return money.Money.of(amount, currency)

    return plans.Catalog(
        plans=[
            plans.Plan("basic", "Basic", price("30.10")),
            plans.Plan("classic", "Classic", price("30.10")),
            plans.Plan("pro", "Pro", price("50.30")),
            plans.Plan("team", "Team", price("99.00"), trial_days=14),
            plans.Plan("scale", "Scale", price("149.00")),
            plans.Plan("lite-usd", "Lite", price("23.80", "USD")),
            plans.Plan("plus-usd", "Plus", price("41.00", "USD")),
        ],
        addons=[plans.AddOn("seats", "Extra seats", price("10.00"), max_quantity=50)],
    )


@pytest.fixture
def service(api, catalog):
    return api.BillingService(catalog)


@pytest.fixture
def make_account(service):
    """make_account(name, country, currency="EUR", **extra) -> account id."""

    def make(name, country, currency="EUR", **extra):
        response = service.create_account(
            {"name": name, "email": f"ap@{name.lower()}.test", "currency": currency,
             "country": country, **extra}
        )  # fmt: skip
        assert response["ok"], response
        return response["data"]["account_id"]

    return make


@pytest.fixture
def starter_catalog(money, plans):
    """The catalog of the repository's own test suite (tests/conftest.py), for the baseline
    tests that cover what those tests cover."""

    def price(amount, currency="EUR"):
        return money.Money.of(amount, currency)

    return plans.Catalog(
        plans=[
            plans.Plan("basic", "Basic", price("30.10")),
            plans.Plan("pro", "Pro", price("50.30")),
            plans.Plan("team", "Team", price("99.00"), trial_days=14),
            plans.Plan("annual", "Annual", price("300.00"), interval="year"),
            plans.Plan("starter-usd", "Starter", price("19.00", "USD")),
        ],
        addons=[
            plans.AddOn("seats", "Extra seats", price("10.00"), max_quantity=50),
            plans.AddOn("storage", "Extra storage (100 GB)", price("4.99")),
        ],
    )


@pytest.fixture
def starter_service(api, starter_catalog):
    return api.BillingService(starter_catalog)
