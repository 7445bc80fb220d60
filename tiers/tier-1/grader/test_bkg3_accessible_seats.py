"""BKG-3: wheelchair positions in best-available allocation (the keyword's name is seeded)."""


def _wheelchair(params):
    return {params["wheelchair_kw"]: True}


def test_default_allocation_never_uses_wheelchair_positions(booking, events, hall):
    seats = events.SeatMap(hall)
    best = booking.best_available
    assert best(seats, "STL", 1) == ["STL-A-5"]
    assert best(seats, "STL", 2) == ["STL-A-4", "STL-A-5"]
    assert best(seats, "STL", 5) == [f"STL-A-{n}" for n in range(1, 6)]
    assert best(seats, "STL", 6) == [f"STL-B-{n}" for n in range(4, 10)]
    seats.block([f"STL-A-{n}" for n in (1, 2, 3, 4, 5, 8, 9, 10, 11, 12)])
    assert best(seats, "STL", 1) == ["STL-B-6"]


def test_accessible_requests_get_positions_in_seat_order(booking, events, hall, params):
    seats = events.SeatMap(hall)
    best = booking.best_available
    assert best(seats, "STL", 3, **_wheelchair(params)) == ["STL-A-6", "STL-A-7", "STL-D-1"]
    seats.hold(["STL-A-6"])
    assert best(seats, "STL", 1, **_wheelchair(params)) == ["STL-A-7"]
    assert best(seats, "STL", 3, **_wheelchair(params)) == ["STL-A-7", "STL-D-1", "STL-D-12"]


def test_positions_are_ordered_by_seat_number_not_label_text(booking, events, params):
    # As text, "LOG-A-10" sorts before "LOG-A-2" and "LOG-A-9"; row B comes after row A.
    positions = frozenset({"LOG-B-1", "LOG-A-10", "LOG-A-2", "LOG-A-9", "LOG-B-11"})
    venue = events.Venue(
        "V-LOFT",
        "Loft",
        "Europe/Zurich",
        (events.Section("LOG", "Loge", ("A", "B"), 12, accessible_seats=positions),),
    )
    seats = events.SeatMap(venue)
    best = booking.best_available
    expected = ["LOG-A-2", "LOG-A-9", "LOG-A-10", "LOG-B-1", "LOG-B-11"]
    assert best(seats, "LOG", 5, **_wheelchair(params)) == expected
    assert best(seats, "LOG", 3, **_wheelchair(params)) == expected[:3]
    seats.sell(seats.hold(["LOG-A-2"]))
    assert best(seats, "LOG", 2, **_wheelchair(params)) == ["LOG-A-9", "LOG-A-10"]


def test_too_few_positions_is_an_allocation_error(
    subject, booking, events, hall, make_service, now, params
):
    seats = events.SeatMap(hall)
    seats.hold(["STL-D-12"])
    with subject.raises("booking.AllocationError"):
        booking.best_available(seats, "STL", 4, **_wheelchair(params))
    with subject.raises("booking.AllocationError"):
        booking.best_available(seats, "BOX", 1, **_wheelchair(params))
    service = make_service()
    with subject.raises("booking.AllocationError"):
        service.hold_best_available("E-500", "STL", 5, now, **_wheelchair(params))
    stalls = service.seatmap("E-500")
    available = events.SeatStatus.AVAILABLE
    for label in ("STL-A-6", "STL-A-7", "STL-D-1", "STL-D-12"):
        assert stalls.status(label) == available


def test_the_service_passes_the_request_through(make_service, now, params):
    service = make_service()
    wheelchair = service.hold_best_available("E-500", "STL", 2, now, **_wheelchair(params))
    assert wheelchair.seats == ("STL-A-6", "STL-A-7")
    ordinary = service.hold_best_available("E-500", "STL", 2, now)
    assert ordinary.seats == ("STL-A-4", "STL-A-5")
    chosen = service.hold_seats("E-500", ["STL-D-1"], now)
    assert chosen.seats == ("STL-D-1",)
