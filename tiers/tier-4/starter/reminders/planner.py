"""Deciding when reminders go out and to which address."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta

from booking import Appointment
from patients import ContactPreference, PatientRegistry, PatientValidationError, contact_address

from .templates import render_reminder

#: How long before an appointment's start its reminders are sent.
DEFAULT_OFFSETS: tuple[timedelta, ...] = (timedelta(hours=24),)


@dataclass(frozen=True)
class Reminder:
    """One message to send: what, to whom, on which channel and when."""

    appointment_id: str
    patient_id: str
    channel: ContactPreference
    address: str
    send_at: datetime
    body: str


class ReminderPlanner:
    """Turns appointments into reminders.

    ``offsets`` are the lead times before the appointment's start at which a reminder is
    sent; they default to :data:`DEFAULT_OFFSETS`.
    """

    def __init__(
        self, registry: PatientRegistry, offsets: Iterable[timedelta] | None = None
    ) -> None:
        self.registry = registry
        self.offsets: tuple[timedelta, ...] = (
            tuple(offsets) if offsets is not None else DEFAULT_OFFSETS
        )
        if any(offset <= timedelta(0) for offset in self.offsets):
            raise ValueError("reminder offsets must be positive")

    def plan_for(self, appointment: Appointment, now: datetime) -> list[Reminder]:
        """The reminders still to send for ``appointment`` as of ``now``.

        Only BOOKED appointments get reminders; reminders whose time is not after ``now``
        are left out, as are patients with no address for their preferred channel.
        """
        if not appointment.is_active:
            return []
        patient = self.registry.get(appointment.patient_id)
        try:
            channel, address = contact_address(patient)
        except PatientValidationError:
            return []
        body = render_reminder(appointment, patient)
        reminders = []
        for offset in self.offsets:
            send_at = appointment.start - offset
            if send_at <= now:
                continue
            reminders.append(
                Reminder(
                    appointment_id=appointment.appointment_id,
                    patient_id=patient.patient_id,
                    channel=channel,
                    address=address,
                    send_at=send_at,
                    body=body,
                )
            )
        return reminders

    def plan_all(self, appointments: Iterable[Appointment], now: datetime) -> list[Reminder]:
        """Reminders for several appointments, ordered by send time."""
        planned = [r for a in appointments for r in self.plan_for(a, now)]
        return sorted(planned, key=lambda r: (r.send_at, r.appointment_id))
