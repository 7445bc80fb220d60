"""Exceptions raised by the events package."""


class EventsError(Exception):
    """Base class for every error raised by :mod:`events`."""


class InvalidSeatLabelError(EventsError, ValueError):
    """A seat label is not of the form ``SECTION-ROW-NUMBER``."""


class UnknownSectionError(EventsError, KeyError):
    """The venue has no section with the given code."""


class UnknownSeatError(EventsError, KeyError):
    """The seat label does not name a seat of the venue."""


class SeatStateError(EventsError):
    """A seat transition is not allowed from the seat's current status.

    ``seats`` lists the offending seat labels.
    """

    def __init__(self, message: str, seats: list[str]) -> None:
        super().__init__(message)
        self.seats = seats


class UnknownEventError(EventsError, KeyError):
    """The schedule has no event with the given id."""


class DuplicateEventError(EventsError):
    """An event with the same id is already scheduled."""


class ScheduleConflictError(EventsError):
    """Two events would occupy the same venue at the same time."""


class EventStateError(EventsError):
    """The event's status does not allow the requested operation."""
