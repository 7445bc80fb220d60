"""Shared fixtures: one arena, one event, its prices and two discount codes."""

from datetime import UTC, datetime, timedelta
from decimal import Decimal

import pytest

from booking import BookingService
from events import Event, Schedule, Section, Venue
from pricing import DiscountBook, DiscountCode, DiscountKind, PriceTable, PriceTier

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
def arena() -> Venue:
    return Venue(
        venue_id="V-ARENA",
        name="Riverside Arena",
        timezone="Europe/London",
        sections=(
            Section("FLR", "Floor", ("A", "B", "C"), 10),
            Section(
                "BAL",
                "Balcony",
                ("A", "B"),
                8,
                accessible_seats=frozenset({"BAL-A-1", "BAL-A-8"}),
            ),
        ),
    )


@pytest.fixture
def event(arena: Venue) -> Event:
    return Event(
        event_id="E-100",
        name="Northern Lights Tour",
        venue=arena,
        starts_at=SHOW_START,
        on_sale_from=NOW - timedelta(hours=2),
    )


@pytest.fixture
def schedule(event: Event) -> Schedule:
    schedule = Schedule()
    schedule.add(event)
    return schedule


@pytest.fixture
def prices() -> PriceTable:
    return PriceTable(
        "E-100",
        "USD",
        [
            PriceTier("P1", "Floor", Decimal("89.00"), frozenset({"FLR"})),
            PriceTier("P2", "Balcony", Decimal("49.50"), frozenset({"BAL"})),
        ],
    )


@pytest.fixture
def discounts() -> DiscountBook:
    book = DiscountBook()
    book.add(DiscountCode("spring10", DiscountKind.PERCENT, Decimal("10")))
    book.add(
        DiscountCode(
            "FIVEOFF", DiscountKind.AMOUNT, Decimal("5.00"), currency="USD", max_uses=2
        )
    )
    return book


@pytest.fixture
def service(schedule: Schedule, prices: PriceTable, discounts: DiscountBook) -> BookingService:
    return BookingService(schedule, {"E-100": prices}, discounts=discounts)
