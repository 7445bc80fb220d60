"""The grader's own fixtures, built in the subject: a concert hall, two events, a service factory.

The hall has wheelchair positions in the middle of the front row, so default best-available
allocation must work around them (BKG-3); no other test relies on best-available allocation in
that row. Every object here lives in the subject and reaches the tests as a remote reference.
"""

from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from typing import Any

import pytest

NOW = datetime(2031, 1, 10, 9, 0, tzinfo=UTC)
GALA_START = datetime(2031, 2, 14, 19, 0, tzinfo=UTC)


@pytest.fixture
def events(subject: Any) -> Any:
    return subject.module("events")


@pytest.fixture
def pricing(subject: Any) -> Any:
    return subject.module("pricing")


@pytest.fixture
def booking(subject: Any) -> Any:
    return subject.module("booking")


@pytest.fixture
def same(subject: Any) -> Callable[[Any, Any], bool]:
    """`same(a, b)`: whether two remote references name one object (`a is b` in the subject)."""
    is_ = subject.module("operator").is_

    def check(a: Any, b: Any) -> bool:
        return is_(a, b) is True

    return check


@pytest.fixture
def now() -> datetime:
    return NOW


@pytest.fixture
def hall(events: Any) -> Any:
    return events.Venue(
        venue_id="V-HALL",
        name="Corn Exchange",
        timezone="Europe/Zurich",
        sections=(
            events.Section(
                "STL",
                "Stalls",
                ("A", "B", "C", "D"),
                12,
                accessible_seats=frozenset({"STL-A-6", "STL-A-7", "STL-D-1", "STL-D-12"}),
            ),
            events.Section("BOX", "Boxes", ("A",), 4),
        ),
    )


@pytest.fixture
def gala(events: Any, hall: Any) -> Any:
    return events.Event(
        event_id="E-500",
        name="Spring Gala",
        venue=hall,
        starts_at=GALA_START,
        on_sale_from=datetime(2031, 1, 1, 0, 0, tzinfo=UTC),
    )


@pytest.fixture
def encore(events: Any, hall: Any) -> Any:
    return events.Event(
        event_id="E-501",
        name="Spring Gala (encore)",
        venue=hall,
        starts_at=GALA_START + timedelta(days=7),
    )


@pytest.fixture
def schedule(events: Any, gala: Any, encore: Any) -> Any:
    schedule = events.Schedule()
    schedule.add(gala)
    schedule.add(encore)
    return schedule


@pytest.fixture
def make_service(booking: Any, pricing: Any, schedule: Any) -> Callable[..., Any]:
    """``make_service(currency="USD", stalls="45.00", boxes="120.00", **service_kwargs)``.

    Both events get the same price table. Discount codes: HALL15 (15 %),
    TENOFF (10.00 off, in the service's currency).
    """

    def build(
        currency: str = "USD",
        stalls: str = "45.00",
        boxes: str = "120.00",
        **kwargs: Any,
    ) -> Any:
        book = pricing.DiscountBook()
        book.add(pricing.DiscountCode("HALL15", pricing.DiscountKind.PERCENT, Decimal("15")))
        book.add(
            pricing.DiscountCode(
                "TENOFF", pricing.DiscountKind.AMOUNT, Decimal("10"), currency=currency
            )
        )
        tables = {
            event_id: pricing.PriceTable(
                event_id,
                currency,
                [
                    pricing.PriceTier("S", "Stalls", Decimal(stalls), frozenset({"STL"})),
                    pricing.PriceTier("B", "Boxes", Decimal(boxes), frozenset({"BOX"})),
                ],
            )
            for event_id in ("E-500", "E-501")
        }
        return booking.BookingService(schedule, tables, discounts=book, **kwargs)

    return build
