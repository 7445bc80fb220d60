"""BKG-1: one hold extension (its length is seeded)."""

from datetime import timedelta


def _extension(params):
    return timedelta(minutes=params["hold_extension_minutes"])


def test_extension_adds_five_minutes_to_the_expiry(
    subject, booking, events, hall, same, now, params
):
    holds = booking.HoldManager()
    hold = holds.place("E-500", events.SeatMap(hall), ["STL-B-1"], now)
    assert hold.extended is False
    constant = subject.module("booking.holds").HOLD_EXTENSION
    assert constant == _extension(params)
    extended = holds.extend(hold.hold_id, now + timedelta(minutes=3))
    assert same(extended, hold)
    assert hold.expires_at == now + timedelta(minutes=10) + _extension(params)
    assert hold.extended is True


def test_a_hold_is_extended_only_once(subject, booking, events, hall, now, params):
    holds = booking.HoldManager(ttl=timedelta(minutes=4))
    hold = holds.place("E-500", events.SeatMap(hall), ["STL-B-2"], now)
    holds.extend(hold.hold_id, now)
    expiry = now + timedelta(minutes=4) + _extension(params)
    assert hold.expires_at == expiry
    with subject.raises("booking.errors.HoldExtensionError") as info:
        holds.extend(hold.hold_id, now + timedelta(minutes=1))
    assert subject.isinstance(info.value.ref, "booking.BookingError")
    assert info.value.message == params["extension_refused_message"].format(hold_id=hold.hold_id)
    assert hold.expires_at == expiry
    assert hold.extended is True


def test_an_expired_hold_cannot_be_extended(subject, booking, events, hall, now):
    seats = events.SeatMap(hall)
    holds = booking.HoldManager()
    hold = holds.place("E-500", seats, ["STL-B-3", "STL-B-4"], now)
    with subject.raises("booking.HoldExpiredError"):
        holds.extend(hold.hold_id, now + timedelta(minutes=10))
    assert seats.is_available("STL-B-3") is True and seats.is_available("STL-B-4") is True
    with subject.raises("booking.UnknownHoldError"):
        holds.get(hold.hold_id)
    assert hold.extended is False


def test_a_released_hold_cannot_be_extended(subject, booking, events, hall, now):
    holds = booking.HoldManager()
    hold = holds.place("E-500", events.SeatMap(hall), ["STL-B-5"], now)
    holds.release(hold.hold_id)
    with subject.raises("booking.UnknownHoldError"):
        holds.extend(hold.hold_id, now)
    assert hold.extended is False


def test_service_extension_lets_checkout_happen_later(subject, make_service, same, now, params):
    service = make_service()
    hold = service.hold_seats("E-500", ["STL-C-4"], now)
    expiry = now + timedelta(minutes=10) + _extension(params)
    extended = service.extend_hold(hold.hold_id, now + timedelta(minutes=9))
    assert same(extended, hold)
    assert hold.expires_at == expiry
    last_minute = expiry - timedelta(minutes=1)
    order = service.checkout(hold.hold_id, "ann@example.com", last_minute)
    assert order.seats == ("STL-C-4",)
    with subject.raises("booking.UnknownHoldError"):
        service.extend_hold(hold.hold_id, last_minute)
    with subject.raises("booking.UnknownHoldError"):
        service.extend_hold("H9999", now)
