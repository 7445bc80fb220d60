"""Shared fixtures: a small product catalog and a fresh billing service."""

import pytest

from api import BillingService
from money import Money
from plans import AddOn, Catalog, Interval, Plan


@pytest.fixture
def catalog():
    return Catalog(
        plans=[
            Plan("basic", "Basic", Money.of("30.10", "EUR")),
            Plan("pro", "Pro", Money.of("50.30", "EUR")),
            Plan("team", "Team", Money.of("99.00", "EUR"), trial_days=14),
            Plan("annual", "Annual", Money.of("300.00", "EUR"), interval=Interval.YEAR),
            Plan("starter-usd", "Starter", Money.of("19.00", "USD")),
        ],
        addons=[
            AddOn("seats", "Extra seats", Money.of("10.00", "EUR"), max_quantity=50),
            AddOn("storage", "Extra storage (100 GB)", Money.of("4.99", "EUR")),
        ],
    )


@pytest.fixture
def service(catalog):
    return BillingService(catalog)
