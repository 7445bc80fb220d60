"""What tests/test_seatmap.py covers: the seat state machine, atomic holds, available seats."""


def test_hold_sell_release_cycle(events, arena):
    seats = events.SeatMap(arena)
    assert seats.hold(["flr-a-1", "FLR-A-2"]) == ["FLR-A-1", "FLR-A-2"]
    assert seats.status("FLR-A-1") == events.SeatStatus.HELD
    seats.sell(["FLR-A-1", "FLR-A-2"])
    assert seats.status("FLR-A-2") == events.SeatStatus.SOLD
    seats.release(["FLR-A-1"])
    assert seats.is_available("FLR-A-1") is True
    assert seats.counts()[events.SeatStatus.SOLD] == 1


def test_hold_is_all_or_nothing(subject, events, arena):
    seats = events.SeatMap(arena)
    seats.hold(["FLR-A-2"])
    with subject.raises("events.SeatStateError") as info:
        seats.hold(["FLR-A-1", "FLR-A-2", "FLR-A-3"])
    assert info.value.seats == ["FLR-A-2"]
    assert seats.is_available("FLR-A-1") is True
    assert seats.is_available("FLR-A-3") is True


def test_available_seats_are_in_seat_order_and_skip_blocked(events, arena):
    seats = events.SeatMap(arena)
    seats.block(["BAL-A-2", "BAL-B-1"])
    available = seats.available_seats("BAL")
    assert available[:3] == ["BAL-A-1", "BAL-A-3", "BAL-A-4"]
    assert len(available) == 14
    assert len(seats.available_seats()) == 44


def test_only_held_seats_can_be_sold(subject, events, arena):
    seats = events.SeatMap(arena)
    with subject.raises("events.SeatStateError"):
        seats.sell(["FLR-C-3"])
    seats.block(["FLR-C-3"])
    with subject.raises("events.SeatStateError"):
        seats.hold(["FLR-C-3"])
