"""The grader's own fixtures: a concert hall with two events and a service factory.

The hall has wheelchair positions in the middle of the front row, so default
best-available allocation must work around them (BKG-3); no other test relies
on best-available allocation in that row.
"""

from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from decimal import Decimal

import pytest

from booking import BookingService
from events import Event, Schedule, Section, Venue
from pricing import DiscountBook, DiscountCode, DiscountKind, PriceTable, PriceTier

NOW = datetime(2031, 1, 10, 9, 0, tzinfo=UTC)
GALA_START = datetime(2031, 2, 14, 19, 0, tzinfo=UTC)


@pytest.fixture
def now() -> datetime:
    return NOW


@pytest.fixture
def hall() -> Venue:
    return Venue(
        venue_id="V-HALL",
        name="Corn Exchange",
        timezone="Europe/Zurich",
        sections=(
            Section(
                "STL",
                "Stalls",
                ("A", "B", "C", "D"),
                12,
                accessible_seats=frozenset({"STL-A-6", "STL-A-7", "STL-D-1", "STL-D-12"}),
            ),
            Section("BOX", "Boxes", ("A",), 4),
        ),
    )


@pytest.fixture
def gala(hall: Venue) -> Event:
    return Event(
        event_id="E-500",
        name="Spring Gala",
        venue=hall,
        starts_at=GALA_START,
        on_sale_from=datetime(2031, 1, 1, 0, 0, tzinfo=UTC),
    )


@pytest.fixture
def encore(hall: Venue) -> Event:
    return Event(
        event_id="E-501",
        name="Spring Gala (encore)",
        venue=hall,
        starts_at=GALA_START + timedelta(days=7),
    )


@pytest.fixture
def schedule(gala: Event, encore: Event) -> Schedule:
    schedule = Schedule()
    schedule.add(gala)
    schedule.add(encore)
    return schedule


@pytest.fixture
def make_service(schedule: Schedule) -> Callable[..., BookingService]:
    """``make_service(currency="USD", stalls="45.00", boxes="120.00", **service_kwargs)``.

    Both events get the same price table. Discount codes: HALL15 (15 %),
    TENOFF (10.00 off, in the service's currency).
    """

    def build(
        currency: str = "USD",
        stalls: str = "45.00",
        boxes: str = "120.00",
        **kwargs: object,
    ) -> BookingService:
        book = DiscountBook()
        book.add(DiscountCode("HALL15", DiscountKind.PERCENT, Decimal("15")))
        book.add(DiscountCode("TENOFF", DiscountKind.AMOUNT, Decimal("10"), currency=currency))
        tables = {
            event_id: PriceTable(
                event_id,
                currency,
                [
                    PriceTier("S", "Stalls", Decimal(stalls), frozenset({"STL"})),
                    PriceTier("B", "Boxes", Decimal(boxes), frozenset({"BOX"})),
                ],
            )
            for event_id in ("E-500", "E-501")
        }
        return BookingService(schedule, tables, discounts=book, **kwargs)

    return build
