"""Appointments and the kinds of visit the clinic offers."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from enum import StrEnum

from calendar_core import TimeSlot

from .errors import BookingError

#: Visit kinds the clinic books, with their default length in minutes.
APPOINTMENT_KINDS: dict[str, int] = {
    "consultation": 20,
    "long-consultation": 40,
    "follow-up": 10,
    "vaccination": 10,
    "blood-test": 10,
}


def default_duration(kind: str) -> int:
    """Default length in minutes of a visit kind; unknown kinds raise :class:`BookingError`."""
    try:
        return APPOINTMENT_KINDS[kind]
    except KeyError:
        known = ", ".join(sorted(APPOINTMENT_KINDS))
        raise BookingError(f"unknown appointment kind {kind!r}; expected one of {known}") from None


class AppointmentStatus(StrEnum):
    """Life cycle of an appointment: BOOKED, then exactly one of the other three."""

    BOOKED = "booked"
    CANCELLED = "cancelled"
    COMPLETED = "completed"
    NO_SHOW = "no-show"


@dataclass
class Appointment:
    """One booked visit of a patient with a practitioner.

    ``cancellation_fee`` is the fee charged when the appointment was cancelled
    (``Decimal("0.00")`` otherwise).
    """

    appointment_id: str
    patient_id: str
    practitioner: str
    slot: TimeSlot
    kind: str
    status: AppointmentStatus = AppointmentStatus.BOOKED
    booked_at: datetime | None = None
    cancelled_at: datetime | None = None
    cancellation_fee: Decimal = Decimal("0.00")

    @property
    def start(self) -> datetime:
        """When the visit starts."""
        return self.slot.start

    @property
    def end(self) -> datetime:
        """When the visit ends."""
        return self.slot.end

    @property
    def is_active(self) -> bool:
        """True while the appointment is BOOKED (neither cancelled nor finished)."""
        return self.status is AppointmentStatus.BOOKED
