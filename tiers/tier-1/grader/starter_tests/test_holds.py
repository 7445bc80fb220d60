"""What tests/test_holds.py covers: placing, expiring and consuming holds."""

from datetime import timedelta


def test_place_hold(subject, booking, events, arena, now):
    seats = events.SeatMap(arena)
    holds = booking.HoldManager()
    hold = holds.place("E-100", seats, ["flr-b-1", "FLR-B-2"], now)
    assert hold.hold_id == "H0001"
    assert hold.seats == ("FLR-B-1", "FLR-B-2")
    assert hold.expires_at == now + timedelta(minutes=10)
    assert seats.status("FLR-B-1") == events.SeatStatus.HELD
    with subject.raises("booking.SeatUnavailableError") as info:
        holds.place("E-100", seats, ["FLR-B-2", "FLR-B-3"], now)
    assert info.value.seats == ["FLR-B-2"]


def test_expire_due_releases_seats(subject, booking, events, arena, now):
    seats = events.SeatMap(arena)
    holds = booking.HoldManager(ttl=timedelta(minutes=5))
    first = holds.place("E-100", seats, ["FLR-C-1"], now)
    holds.place("E-100", seats, ["FLR-C-2"], now + timedelta(minutes=3))
    assert holds.expire_due(now + timedelta(minutes=5)) == [first.hold_id]
    assert seats.is_available("FLR-C-1") is True
    assert seats.is_available("FLR-C-2") is False
    with subject.raises("booking.UnknownHoldError"):
        holds.get(first.hold_id)


def test_consuming_an_expired_hold_fails(subject, booking, events, arena, now):
    seats = events.SeatMap(arena)
    holds = booking.HoldManager()
    hold = holds.place("E-100", seats, ["BAL-B-4"], now)
    with subject.raises("booking.HoldExpiredError"):
        holds.consume(hold.hold_id, now + timedelta(minutes=10))
    assert seats.is_available("BAL-B-4") is True
    assert len(holds) == 0
