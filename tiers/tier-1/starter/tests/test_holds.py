from datetime import timedelta

import pytest

from booking import HoldExpiredError, HoldManager, SeatUnavailableError, UnknownHoldError
from events import SeatMap, SeatStatus


def test_place_hold(arena, now):
    seats = SeatMap(arena)
    holds = HoldManager()
    hold = holds.place("E-100", seats, ["flr-b-1", "FLR-B-2"], now)
    assert hold.hold_id == "H0001"
    assert hold.seats == ("FLR-B-1", "FLR-B-2")
    assert hold.expires_at == now + timedelta(minutes=10)
    assert seats.status("FLR-B-1") is SeatStatus.HELD
    with pytest.raises(SeatUnavailableError) as info:
        holds.place("E-100", seats, ["FLR-B-2", "FLR-B-3"], now)
    assert info.value.seats == ["FLR-B-2"]


def test_expire_due_releases_seats(arena, now):
    seats = SeatMap(arena)
    holds = HoldManager(ttl=timedelta(minutes=5))
    first = holds.place("E-100", seats, ["FLR-C-1"], now)
    holds.place("E-100", seats, ["FLR-C-2"], now + timedelta(minutes=3))
    assert holds.expire_due(now + timedelta(minutes=5)) == [first.hold_id]
    assert seats.is_available("FLR-C-1")
    assert not seats.is_available("FLR-C-2")
    with pytest.raises(UnknownHoldError):
        holds.get(first.hold_id)


def test_consuming_an_expired_hold_fails(arena, now):
    seats = SeatMap(arena)
    holds = HoldManager()
    hold = holds.place("E-100", seats, ["BAL-B-4"], now)
    with pytest.raises(HoldExpiredError):
        holds.consume(hold.hold_id, now + timedelta(minutes=10))
    assert seats.is_available("BAL-B-4")
    assert len(holds) == 0
