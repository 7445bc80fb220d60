import pytest

from events import SeatMap, SeatStateError, SeatStatus


def test_hold_sell_release_cycle(arena):
    seats = SeatMap(arena)
    assert seats.hold(["flr-a-1", "FLR-A-2"]) == ["FLR-A-1", "FLR-A-2"]
    assert seats.status("FLR-A-1") is SeatStatus.HELD
    seats.sell(["FLR-A-1", "FLR-A-2"])
    assert seats.status("FLR-A-2") is SeatStatus.SOLD
    seats.release(["FLR-A-1"])
    assert seats.is_available("FLR-A-1")
    assert seats.counts()[SeatStatus.SOLD] == 1


def test_hold_is_all_or_nothing(arena):
    seats = SeatMap(arena)
    seats.hold(["FLR-A-2"])
    with pytest.raises(SeatStateError) as info:
        seats.hold(["FLR-A-1", "FLR-A-2", "FLR-A-3"])
    assert info.value.seats == ["FLR-A-2"]
    assert seats.is_available("FLR-A-1")
    assert seats.is_available("FLR-A-3")


def test_available_seats_are_in_seat_order_and_skip_blocked(arena):
    seats = SeatMap(arena)
    seats.block(["BAL-A-2", "BAL-B-1"])
    available = seats.available_seats("BAL")
    assert available[:3] == ["BAL-A-1", "BAL-A-3", "BAL-A-4"]
    assert len(available) == 14
    assert len(seats.available_seats()) == 44


def test_only_held_seats_can_be_sold(arena):
    seats = SeatMap(arena)
    with pytest.raises(SeatStateError):
        seats.sell(["FLR-C-3"])
    seats.block(["FLR-C-3"])
    with pytest.raises(SeatStateError):
        seats.hold(["FLR-C-3"])
