"""Exceptions raised by the booking package."""


class BookingError(Exception):
    """Base class for every error raised by :mod:`booking`."""


class EventNotOnSaleError(BookingError):
    """Tickets for the event cannot be bought right now."""


class SeatUnavailableError(BookingError):
    """One or more requested seats are not available.

    ``seats`` lists the seats that could not be taken.
    """

    def __init__(self, message: str, seats: list[str]) -> None:
        super().__init__(message)
        self.seats = seats


class AllocationError(BookingError):
    """Seats could not be allocated automatically."""


class NoContiguousSeatsError(AllocationError):
    """No row has enough adjacent available seats."""


class UnknownHoldError(BookingError, KeyError):
    """No active hold with that id (never existed, released or checked out)."""


class HoldExpiredError(BookingError):
    """The hold timed out; its seats went back on sale."""


class UnknownOrderError(BookingError, KeyError):
    """No order with that id."""


class OrderStateError(BookingError):
    """The order's status does not allow the requested operation."""
