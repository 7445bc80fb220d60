"""BKG-3: wheelchair positions in best-available allocation."""

import pytest

from booking import AllocationError, best_available
from events import SeatMap, SeatStatus


def test_default_allocation_never_uses_wheelchair_positions(hall):
    seats = SeatMap(hall)
    assert best_available(seats, "STL", 1) == ["STL-A-5"]
    assert best_available(seats, "STL", 2) == ["STL-A-4", "STL-A-5"]
    assert best_available(seats, "STL", 5) == [f"STL-A-{n}" for n in range(1, 6)]
    assert best_available(seats, "STL", 6) == [f"STL-B-{n}" for n in range(4, 10)]
    seats.block([f"STL-A-{n}" for n in (1, 2, 3, 4, 5, 8, 9, 10, 11, 12)])
    assert best_available(seats, "STL", 1) == ["STL-B-6"]


def test_accessible_requests_get_positions_in_seat_order(hall):
    seats = SeatMap(hall)
    assert best_available(seats, "STL", 3, accessible=True) == ["STL-A-6", "STL-A-7", "STL-D-1"]
    seats.hold(["STL-A-6"])
    assert best_available(seats, "STL", 1, accessible=True) == ["STL-A-7"]
    assert best_available(seats, "STL", 3, accessible=True) == [
        "STL-A-7",
        "STL-D-1",
        "STL-D-12",
    ]


def test_too_few_positions_is_an_allocation_error(hall, make_service, now):
    seats = SeatMap(hall)
    seats.hold(["STL-D-12"])
    with pytest.raises(AllocationError):
        best_available(seats, "STL", 4, accessible=True)
    with pytest.raises(AllocationError):
        best_available(seats, "BOX", 1, accessible=True)
    service = make_service()
    with pytest.raises(AllocationError):
        service.hold_best_available("E-500", "STL", 5, now, accessible=True)
    stalls = service.seatmap("E-500")
    assert all(
        stalls.status(label) is SeatStatus.AVAILABLE
        for label in ("STL-A-6", "STL-A-7", "STL-D-1", "STL-D-12")
    )


def test_the_service_passes_the_request_through(make_service, now):
    service = make_service()
    wheelchair = service.hold_best_available("E-500", "STL", 2, now, accessible=True)
    assert wheelchair.seats == ("STL-A-6", "STL-A-7")
    ordinary = service.hold_best_available("E-500", "STL", 2, now)
    assert ordinary.seats == ("STL-A-4", "STL-A-5")
    chosen = service.hold_seats("E-500", ["STL-D-1"], now)
    assert chosen.seats == ("STL-D-1",)
