"""In-memory storage of appointments.

Private to the :mod:`booking` package: other packages read appointments through
:class:`booking.scheduler.Scheduler`.
"""

from __future__ import annotations

from collections.abc import Iterator

from .models import Appointment


class AppointmentLedger:
    """Every appointment ever booked, keyed by id (``A0001``, ``A0002``, ...)."""

    def __init__(self) -> None:
        self._appointments: dict[str, Appointment] = {}
        self._sequence = 0

    def new_id(self) -> str:
        """Reserve and return the next appointment id."""
        self._sequence += 1
        return f"A{self._sequence:04d}"

    def add(self, appointment: Appointment) -> None:
        """Store a new appointment."""
        if appointment.appointment_id in self._appointments:
            raise ValueError(f"duplicate appointment id {appointment.appointment_id}")
        self._appointments[appointment.appointment_id] = appointment

    def get(self, appointment_id: str) -> Appointment | None:
        """The appointment with that id, or ``None``."""
        return self._appointments.get(appointment_id)

    def for_practitioner(self, practitioner: str) -> list[Appointment]:
        """All appointments of a practitioner, in time order."""
        return [a for a in self if a.practitioner == practitioner]

    def for_patient(self, patient_id: str) -> list[Appointment]:
        """All appointments of a patient, in time order."""
        return [a for a in self if a.patient_id == patient_id]

    def __iter__(self) -> Iterator[Appointment]:
        return iter(
            sorted(self._appointments.values(), key=lambda a: (a.start, a.appointment_id))
        )

    def __len__(self) -> int:
        return len(self._appointments)
