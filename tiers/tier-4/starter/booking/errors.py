"""Errors raised by :mod:`booking`."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .models import Appointment


class BookingError(Exception):
    """Base class of every error raised by the booking package."""


class AppointmentNotFoundError(BookingError):
    """No appointment exists under the given id."""


class UnknownPatientError(BookingError):
    """The patient id is not registered."""


class UnknownPractitionerError(BookingError):
    """The practitioner does not work at the clinic."""


class OutsideWorkingHoursError(BookingError):
    """The requested slot is not within one opening range of an open day."""


class SlotUnavailableError(BookingError):
    """The practitioner already has an appointment that overlaps the requested slot.

    ``conflicting`` is that existing appointment.
    """

    def __init__(self, message: str, conflicting: Appointment) -> None:
        super().__init__(message)
        self.conflicting = conflicting


class InvalidAppointmentStateError(BookingError):
    """The appointment's status does not allow the requested change."""


class CancellationError(BookingError):
    """The appointment can no longer be cancelled."""
