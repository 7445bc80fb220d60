"""Appointments: booking, conflicts, cancellation policy and the waitlist."""

from .errors import (
    AppointmentNotFoundError,
    BookingError,
    CancellationError,
    InvalidAppointmentStateError,
    OutsideWorkingHoursError,
    SlotUnavailableError,
    UnknownPatientError,
    UnknownPractitionerError,
)
from .models import APPOINTMENT_KINDS, Appointment, AppointmentStatus, default_duration
from .policy import CancellationPolicy
from .scheduler import Scheduler
from .waitlist import Waitlist, WaitlistEntry

__all__ = [
    "APPOINTMENT_KINDS",
    "Appointment",
    "AppointmentNotFoundError",
    "AppointmentStatus",
    "BookingError",
    "CancellationError",
    "CancellationPolicy",
    "InvalidAppointmentStateError",
    "OutsideWorkingHoursError",
    "Scheduler",
    "SlotUnavailableError",
    "UnknownPatientError",
    "UnknownPractitionerError",
    "Waitlist",
    "WaitlistEntry",
    "default_duration",
]
