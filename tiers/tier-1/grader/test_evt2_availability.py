"""EVT-2: per-section availability (the "low" percentage is seeded)."""


def _stalls(n):
    return [f"STL-{row}-{num}" for row in "ABCD" for num in range(1, 13)][:n]


def _counts(report):
    return (report.total, report.available, report.held, report.sold, report.blocked)


def test_counts_by_status(events, hall):
    seats = events.SeatMap(hall)
    seats.hold(["STL-A-1", "STL-A-2", "STL-A-3"])
    seats.sell(["STL-A-1", "STL-A-2"])
    seats.block(["STL-D-12"])
    stalls = seats.section_availability("STL")
    assert _counts(stalls) == (48, 44, 1, 2, 1)
    assert stalls.sold_out is False and stalls.low is False
    boxes = seats.section_availability("BOX")
    assert _counts(boxes) == (4, 4, 0, 0, 0)


def test_low_means_at_most_the_percentage_left(events, hall, params):
    percent = params["low_percent"]
    most = 48 * percent // 100  # the most available seats of 48 that are still low
    seats = events.SeatMap(hall)
    seats.block(_stalls(48 - most - 1))
    stalls = seats.section_availability("STL")
    assert stalls.available == most + 1
    assert stalls.low is False
    seats.hold(_stalls(48 - most)[-1:])
    stalls = seats.section_availability("STL")
    assert stalls.available == most
    assert stalls.low is True
    assert stalls.sold_out is False
    seats.hold(_stalls(48)[48 - most :])
    stalls = seats.section_availability("STL")
    assert stalls.sold_out is True
    assert stalls.low is False


def test_exactly_the_percentage_free_counts_as_low(events, params):
    exact = params["low_percent"]  # of 100 seats: four rows of 25
    venue = events.Venue(
        "V-CLUB",
        "Cellar club",
        "Europe/Zurich",
        (events.Section("FLR", "Floor", ("A", "B", "C", "D"), 25),),
    )
    labels = [f"FLR-{row}-{n}" for row in "ABCD" for n in range(1, 26)]
    seats = events.SeatMap(venue)
    seats.sell(seats.hold(labels[: 99 - exact]))
    floor = seats.section_availability("FLR")
    assert (floor.total, floor.available, floor.sold) == (100, exact + 1, 99 - exact)
    assert floor.low is False
    seats.block(labels[99 - exact : 100 - exact])
    floor = seats.section_availability("FLR")
    assert floor.available == exact
    assert floor.low is True


def test_blocked_seats_never_count_as_available(subject, events, hall, params):
    seats = events.SeatMap(hall)
    seats.block(["BOX-A-1", "BOX-A-2", "BOX-A-3"])
    boxes = seats.section_availability("BOX")
    assert boxes.available == 1
    assert boxes.low is (4 * params["low_percent"] >= 100)  # 1 of 4 is 25 %
    seats.block(["BOX-A-4"])
    assert seats.section_availability("BOX").sold_out is True
    with subject.raises("events.UnknownSectionError"):
        seats.section_availability("GAL")


def test_availability_lists_every_section_in_venue_order(subject, events, hall):
    assert subject.module("operator").is_(
        events.SectionAvailability, subject.module("events.seatmap").SectionAvailability
    )
    seats = events.SeatMap(hall)
    seats.hold(["BOX-A-2"])
    report = seats.availability()
    assert list(report) == ["STL", "BOX"]
    box = seats.section_availability("BOX")
    assert subject.module("operator").eq(report["BOX"], box) is True
    assert subject.value(report["BOX"]) == subject.value(box)
    assert subject.isinstance(report["BOX"], "events.SectionAvailability")
    assert report["BOX"].held == 1
    assert report["STL"].available == 48
    with subject.raises("dataclasses.FrozenInstanceError"):
        box.held = 0


def test_largest_block_is_the_longest_run_of_free_seats_in_a_row(events, hall):
    seats = events.SeatMap(hall)
    assert seats.section_availability("STL").largest_block == 12
    # Wheelchair positions (STL-A-6, -A-7, -D-1, -D-12) count like any other seat.
    seats.block(["STL-B-6", "STL-C-6"])
    assert seats.section_availability("STL").largest_block == 12
    # Rows are never joined: row A's last seats and row B's first are not adjacent.
    for row in "ABCD":
        seats.hold([f"STL-{row}-{n}" for n in (4, 9)])
    assert seats.section_availability("STL").largest_block == 4
    seats.release(["STL-B-9"])
    assert seats.section_availability("STL").largest_block == 6
    seats.block(["BOX-A-2"])
    assert seats.section_availability("BOX").largest_block == 2
    seats.block(["BOX-A-1", "BOX-A-3", "BOX-A-4"])
    assert seats.section_availability("BOX").largest_block == 0
