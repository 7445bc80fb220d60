"""BKG-1: one five-minute hold extension."""

from datetime import timedelta

import pytest

import booking.errors
import booking.holds
from booking import BookingError, HoldExpiredError, HoldManager, UnknownHoldError
from events import SeatMap


def _extension_error():
    # Looked up at run time, so that a missing class fails the tests, not their collection.
    return booking.errors.HoldExtensionError


def test_extension_adds_five_minutes_to_the_expiry(hall, now):
    holds = HoldManager()
    hold = holds.place("E-500", SeatMap(hall), ["STL-B-1"], now)
    assert hold.extended is False
    assert booking.holds.HOLD_EXTENSION == timedelta(minutes=5)
    extended = holds.extend(hold.hold_id, now + timedelta(minutes=3))
    assert extended is hold
    assert hold.expires_at == now + timedelta(minutes=15)
    assert hold.extended is True


def test_a_hold_is_extended_only_once(hall, now):
    holds = HoldManager(ttl=timedelta(minutes=4))
    hold = holds.place("E-500", SeatMap(hall), ["STL-B-2"], now)
    holds.extend(hold.hold_id, now)
    assert hold.expires_at == now + timedelta(minutes=9)
    with pytest.raises(_extension_error()) as info:
        holds.extend(hold.hold_id, now + timedelta(minutes=1))
    assert isinstance(info.value, BookingError)
    assert hold.expires_at == now + timedelta(minutes=9)


def test_an_expired_hold_cannot_be_extended(hall, now):
    seats = SeatMap(hall)
    holds = HoldManager()
    hold = holds.place("E-500", seats, ["STL-B-3", "STL-B-4"], now)
    with pytest.raises(HoldExpiredError):
        holds.extend(hold.hold_id, now + timedelta(minutes=10))
    assert seats.is_available("STL-B-3") and seats.is_available("STL-B-4")
    with pytest.raises(UnknownHoldError):
        holds.get(hold.hold_id)
    assert hold.extended is False


def test_service_extension_lets_checkout_happen_later(make_service, now):
    service = make_service()
    hold = service.hold_seats("E-500", ["STL-C-4"], now)
    assert service.extend_hold(hold.hold_id, now + timedelta(minutes=9)).expires_at == now + timedelta(
        minutes=15
    )
    order = service.checkout(hold.hold_id, "ann@example.com", now + timedelta(minutes=14))
    assert order.seats == ("STL-C-4",)
    with pytest.raises(UnknownHoldError):
        service.extend_hold(hold.hold_id, now + timedelta(minutes=14))
    with pytest.raises(UnknownHoldError):
        service.extend_hold("H9999", now)
