"""The grader's fixtures: a product catalog and a fresh billing service per test."""

import pytest

from api import BillingService
from money import Money
from plans import AddOn, Catalog, Plan


@pytest.fixture
def catalog():
    return Catalog(
        plans=[
            Plan("basic", "Basic", Money.of("30.10", "EUR")),
            Plan("pro", "Pro", Money.of("50.30", "EUR")),
            Plan("team", "Team", Money.of("99.00", "EUR"), trial_days=14),
            Plan("scale", "Scale", Money.of("149.00", "EUR")),
            Plan("lite-usd", "Lite", Money.of("23.80", "USD")),
            Plan("plus-usd", "Plus", Money.of("41.00", "USD")),
        ],
        addons=[
            AddOn("seats", "Extra seats", Money.of("10.00", "EUR"), max_quantity=50),
        ],
    )


@pytest.fixture
def service(catalog):
    return BillingService(catalog)


def _account(service, name, country, currency="EUR", **extra):
    response = service.create_account(
        {"name": name, "email": f"ap@{name.lower()}.test", "currency": currency,
         "country": country, **extra}
    )  # fmt: skip
    assert response["ok"], response
    return response["data"]["account_id"]


@pytest.fixture
def make_account(service):
    """make_account(name, country, currency="EUR", **extra) -> account id."""
    return lambda name, country, currency="EUR", **extra: _account(
        service, name, country, currency, **extra
    )
