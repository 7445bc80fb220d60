"""The starter's visible-test fixtures, rebuilt in the subject: one arena, one event, its prices
and two discount codes. The tests beside this file cover what the visible tests cover, judged
where the graded code cannot reach."""

from datetime import UTC, datetime, timedelta
from decimal import Decimal
from typing import Any

import pytest

#: "Now" in every test: sales opened two hours ago.
NOW = datetime(2030, 3, 1, 12, 0, tzinfo=UTC)
SHOW_START = datetime(2030, 6, 20, 19, 30, tzinfo=UTC)


@pytest.fixture
def now() -> datetime:
    return NOW


@pytest.fixture
def show_start() -> datetime:
    return SHOW_START


@pytest.fixture
def arena(events: Any) -> Any:
    return events.Venue(
        venue_id="V-ARENA",
        name="Riverside Arena",
        timezone="Europe/London",
        sections=(
            events.Section("FLR", "Floor", ("A", "B", "C"), 10),
            events.Section(
                "BAL",
                "Balcony",
                ("A", "B"),
                8,
                accessible_seats=frozenset({"BAL-A-1", "BAL-A-8"}),
            ),
        ),
    )


@pytest.fixture
def event(events: Any, arena: Any) -> Any:
    return events.Event(
        event_id="E-100",
        name="Northern Lights Tour",
        venue=arena,
        starts_at=SHOW_START,
        on_sale_from=NOW - timedelta(hours=2),
    )


@pytest.fixture
def schedule(events: Any, event: Any) -> Any:
    schedule = events.Schedule()
    schedule.add(event)
    return schedule


@pytest.fixture
def prices(pricing: Any) -> Any:
    return pricing.PriceTable(
        "E-100",
        "USD",
        [
            pricing.PriceTier("P1", "Floor", Decimal("89.00"), frozenset({"FLR"})),
            pricing.PriceTier("P2", "Balcony", Decimal("49.50"), frozenset({"BAL"})),
        ],
    )


@pytest.fixture
def discounts(pricing: Any) -> Any:
    book = pricing.DiscountBook()
    book.add(pricing.DiscountCode("spring10", pricing.DiscountKind.PERCENT, Decimal("10")))
    book.add(
        pricing.DiscountCode(
            "FIVEOFF", pricing.DiscountKind.AMOUNT, Decimal("5.00"), currency="USD", max_uses=2
        )
    )
    return book


@pytest.fixture
def service(booking: Any, schedule: Any, prices: Any, discounts: Any) -> Any:
    return booking.BookingService(schedule, {"E-100": prices}, discounts=discounts)
