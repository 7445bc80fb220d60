"""EVT-2: per-section availability."""

import pytest

from events import SeatMap, UnknownSectionError


def _stalls(n):
    return [f"STL-{row}-{num}" for row in "ABCD" for num in range(1, 13)][:n]


def test_counts_by_status(hall):
    seats = SeatMap(hall)
    seats.hold(["STL-A-1", "STL-A-2", "STL-A-3"])
    seats.sell(["STL-A-1", "STL-A-2"])
    seats.block(["STL-D-12"])
    stalls = seats.section_availability("STL")
    assert (stalls.total, stalls.available, stalls.held, stalls.sold, stalls.blocked) == (
        48,
        44,
        1,
        2,
        1,
    )
    assert stalls.sold_out is False and stalls.low is False
    boxes = seats.section_availability("BOX")
    assert (boxes.total, boxes.available, boxes.held, boxes.sold, boxes.blocked) == (4, 4, 0, 0, 0)


def test_low_means_at_most_ten_percent_left(hall):
    seats = SeatMap(hall)
    seats.block(_stalls(43))
    assert seats.section_availability("STL").available == 5
    assert seats.section_availability("STL").low is False
    seats.hold(_stalls(44)[43:])
    stalls = seats.section_availability("STL")
    assert stalls.available == 4
    assert stalls.low is True
    assert stalls.sold_out is False
    seats.hold(_stalls(48)[44:])
    stalls = seats.section_availability("STL")
    assert stalls.sold_out is True
    assert stalls.low is False


def test_blocked_seats_never_count_as_available(hall):
    seats = SeatMap(hall)
    seats.block(["BOX-A-1", "BOX-A-2", "BOX-A-3"])
    boxes = seats.section_availability("BOX")
    assert boxes.available == 1
    assert boxes.low is False  # 1 of 4 is 25 %
    seats.block(["BOX-A-4"])
    assert seats.section_availability("BOX").sold_out is True
    with pytest.raises(UnknownSectionError):
        seats.section_availability("GAL")


def test_availability_lists_every_section_in_venue_order(hall):
    from events import SectionAvailability
    from events.seatmap import SectionAvailability as same

    assert SectionAvailability is same
    seats = SeatMap(hall)
    seats.hold(["BOX-A-2"])
    report = seats.availability()
    assert list(report) == ["STL", "BOX"]
    assert report["BOX"] == seats.section_availability("BOX")
    assert isinstance(report["BOX"], SectionAvailability)
    assert report["BOX"].held == 1
    assert report["STL"].available == 48
