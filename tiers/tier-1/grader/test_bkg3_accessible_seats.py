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
    assert best(seats, "LOG", 3, **_wheelchair(params)) == ["LOG-A-2", "LOG-A-9", "LOG-A-10"]
    seats.sell(seats.hold(["LOG-A-2"]))
    assert best(seats, "LOG", 2, **_wheelchair(params)) == ["LOG-A-9", "LOG-A-10"]
    seats.sell(seats.hold(["LOG-A-9"]))
    assert best(seats, "LOG", 3, **_wheelchair(params)) == ["LOG-A-10", "LOG-B-1", "LOG-B-11"]


def test_too_few_positions_is_an_allocation_error(
    subject, booking, events, hall, make_service, now, params
):
    message = params["too_few_positions_message"]
    seats = events.SeatMap(hall)
    seats.hold(["STL-D-12", "STL-D-1"])
    with subject.raises("booking.AllocationError") as info:
        booking.best_available(seats, "STL", 3, **_wheelchair(params))
    assert info.value.message == message.format(available=2, section="STL")
    with subject.raises("booking.AllocationError") as info:
        booking.best_available(seats, "BOX", 1, **_wheelchair(params))
    assert info.value.message == message.format(available=0, section="BOX")
    service = make_service()
    service.hold_seats("E-500", ["STL-D-1", "STL-D-12"], now)
    with subject.raises("booking.AllocationError"):
        service.hold_best_available("E-500", "STL", 3, now, **_wheelchair(params))
    stalls = service.seatmap("E-500")
    available = events.SeatStatus.AVAILABLE
    for label in ("STL-A-6", "STL-A-7"):
        assert stalls.status(label) == available


def test_one_request_takes_at_most_the_limit_of_positions(subject, booking, events, hall, params):
    most = params["wheelchair_max"]
    row = [f"PLT-A-{n}" for n in range(1, 13)]
    venue = events.Venue(
        "V-DECK",
        "Deck",
        "Europe/Zurich",
        (events.Section("PLT", "Platform", ("A",), 12, accessible_seats=frozenset(row)),),
    )
    seats = events.SeatMap(venue)
    assert booking.best_available(seats, "PLT", most, **_wheelchair(params)) == row[:most]
    with subject.raises("builtins.ValueError"):
        booking.best_available(seats, "PLT", most + 1, **_wheelchair(params))
    # The limit is for wheelchair positions only.
    ordinary = booking.best_available(events.SeatMap(hall), "STL", most + 1)
    assert len(ordinary) == most + 1


def test_the_service_passes_the_request_through(make_service, now, params):
    service = make_service()
    wheelchair = service.hold_best_available("E-500", "STL", 2, now, **_wheelchair(params))
    assert wheelchair.seats == ("STL-A-6", "STL-A-7")
    ordinary = service.hold_best_available("E-500", "STL", 2, now)
    assert ordinary.seats == ("STL-A-4", "STL-A-5")
    chosen = service.hold_seats("E-500", ["STL-D-1"], now)
    assert chosen.seats == ("STL-D-1",)
