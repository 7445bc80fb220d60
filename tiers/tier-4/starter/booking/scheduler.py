"""The scheduler: books, moves, cancels and lists appointments."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date, datetime
from decimal import Decimal

from calendar_core import ClinicCalendar, TimeSlot, format_datetime, split, subtract
from patients import PatientNotFoundError, PatientRegistry

from .errors import (
    AppointmentNotFoundError,
    BookingError,
    InvalidAppointmentStateError,
    OutsideWorkingHoursError,
    SlotUnavailableError,
    UnknownPatientError,
    UnknownPractitionerError,
)
from .ledger import AppointmentLedger
from .models import Appointment, AppointmentStatus, default_duration
from .policy import CancellationPolicy
from .waitlist import Waitlist, WaitlistEntry


class Scheduler:
    """The clinic's appointment book.

    Every method that depends on the current time takes it as an argument (``now`` or
    ``at``), so the scheduler never reads the system clock.
    """

    def __init__(
        self,
        calendar: ClinicCalendar,
        registry: PatientRegistry,
        practitioners: Iterable[str],
        policy: CancellationPolicy | None = None,
    ) -> None:
        self.calendar = calendar
        self.registry = registry
        self.practitioners: tuple[str, ...] = tuple(dict.fromkeys(practitioners))
        if not self.practitioners:
            raise ValueError("a scheduler needs at least one practitioner")
        self.policy = policy if policy is not None else CancellationPolicy()
        self.waitlist = Waitlist()
        self._ledger = AppointmentLedger()

    # ------------------------------------------------------------------ booking

    def book(
        self,
        patient_id: str,
        practitioner: str,
        start: datetime,
        *,
        now: datetime,
        kind: str = "consultation",
        duration_minutes: int | None = None,
    ) -> Appointment:
        """Book ``patient_id`` with ``practitioner`` from ``start``.

        The length defaults to the kind's length (see ``APPOINTMENT_KINDS``). The slot
        must start after ``now``, lie within one opening range of an open day, and not
        overlap another BOOKED appointment of the practitioner.
        """
        self._check_patient_exists(patient_id)
        self._check_practitioner(practitioner)
        minutes = duration_minutes if duration_minutes is not None else default_duration(kind)
        slot = TimeSlot.from_duration(start, minutes)
        if slot.start <= now:
            raise BookingError(f"cannot book a slot in the past: {slot}")
        self._check_slot(practitioner, slot)
        appointment = Appointment(
            appointment_id=self._ledger.new_id(),
            patient_id=patient_id,
            practitioner=practitioner,
            slot=slot,
            kind=kind,
            booked_at=now,
        )
        self._ledger.add(appointment)
        return appointment

    def reschedule(self, appointment_id: str, new_start: datetime, *, now: datetime) -> Appointment:
        """Move a BOOKED appointment to ``new_start``, keeping its length.

        The same rules as for :meth:`book` apply; the appointment never conflicts with
        itself, so it may move to a slot overlapping its old one.
        """
        appointment = self._booked(appointment_id)
        slot = TimeSlot.from_duration(new_start, appointment.slot.duration_minutes)
        if slot.start <= now:
            raise BookingError(f"cannot move an appointment into the past: {slot}")
        self._check_slot(appointment.practitioner, slot, ignore=appointment_id)
        appointment.slot = slot
        return appointment

    def _check_patient_exists(self, patient_id: str) -> None:
        try:
            self.registry.get(patient_id)
        except PatientNotFoundError:
            raise UnknownPatientError(f"no patient with id {patient_id!r}") from None

    def _check_practitioner(self, practitioner: str) -> None:
        if practitioner not in self.practitioners:
            raise UnknownPractitionerError(f"{practitioner!r} does not work at this clinic")

    def _check_slot(self, practitioner: str, slot: TimeSlot, ignore: str | None = None) -> None:
        """Opening hours and the practitioner's own diary."""
        if not self.calendar.is_bookable(slot):
            raise OutsideWorkingHoursError(f"the clinic is not open for {slot}")
        for other in self._ledger.for_practitioner(practitioner):
            if other.appointment_id == ignore or not other.is_active:
                continue
            if other.slot.overlaps(slot):
                raise SlotUnavailableError(
                    f"{practitioner} is busy from {format_datetime(other.start)}"
                    f" ({other.appointment_id})",
                    conflicting=other,
                )

    # ------------------------------------------------------------------ queries

    def get(self, appointment_id: str) -> Appointment:
        """The appointment with that id; raises :class:`AppointmentNotFoundError`."""
        appointment = self._ledger.get(appointment_id)
        if appointment is None:
            raise AppointmentNotFoundError(f"no appointment with id {appointment_id!r}")
        return appointment

    def appointments_for_patient(
        self, patient_id: str, *, include_cancelled: bool = False
    ) -> list[Appointment]:
        """A patient's appointments in time order, cancelled ones only if asked for."""
        return [
            a
            for a in self._ledger.for_patient(patient_id)
            if include_cancelled or a.status is not AppointmentStatus.CANCELLED
        ]

    def appointments_on(self, day: date, practitioner: str | None = None) -> list[Appointment]:
        """Non-cancelled appointments starting on ``day``, in time order."""
        return [
            a
            for a in self._ledger
            if a.start.date() == day
            and a.status is not AppointmentStatus.CANCELLED
            and (practitioner is None or a.practitioner == practitioner)
        ]

    def appointments_between(self, start: datetime, end: datetime) -> list[Appointment]:
        """BOOKED appointments starting in ``[start, end)``, in time order."""
        return [a for a in self._ledger if a.is_active and start <= a.start < end]

    def free_slots(self, practitioner: str, day: date, slot_minutes: int = 20) -> list[TimeSlot]:
        """Bookable slots of ``slot_minutes`` for the practitioner on ``day``.

        Each free stretch of an opening range is cut into consecutive slots from its start;
        a remainder shorter than ``slot_minutes`` is not offered.
        """
        self._check_practitioner(practitioner)
        busy = [a.slot for a in self._ledger.for_practitioner(practitioner) if a.is_active]
        result: list[TimeSlot] = []
        for window in self.calendar.open_windows(day):
            for piece in subtract(window, busy):
                result.extend(split(piece, slot_minutes))
        return result

    # ------------------------------------------------------------------ life cycle

    def cancel(self, appointment_id: str, at: datetime) -> Appointment:
        """Cancel a BOOKED appointment at time ``at`` and charge the policy's fee.

        Raises :class:`~booking.errors.CancellationError` at or after the start.
        """
        appointment = self._booked(appointment_id)
        fee = self.policy.fee_for(appointment, at)
        appointment.status = AppointmentStatus.CANCELLED
        appointment.cancelled_at = at
        appointment.cancellation_fee = fee
        return appointment

    def complete(self, appointment_id: str, at: datetime) -> Appointment:
        """Mark a BOOKED appointment as attended; only possible once it has started."""
        appointment = self._booked(appointment_id)
        if at < appointment.start:
            raise InvalidAppointmentStateError(
                f"appointment {appointment_id} has not started yet"
            )
        appointment.status = AppointmentStatus.COMPLETED
        return appointment

    def mark_no_show(self, appointment_id: str, at: datetime) -> Appointment:
        """Record that the patient did not come; only possible once the slot has ended."""
        appointment = self._booked(appointment_id)
        if at < appointment.end:
            raise InvalidAppointmentStateError(f"appointment {appointment_id} has not ended yet")
        appointment.status = AppointmentStatus.NO_SHOW
        return appointment

    def _booked(self, appointment_id: str) -> Appointment:
        appointment = self.get(appointment_id)
        if not appointment.is_active:
            raise InvalidAppointmentStateError(
                f"appointment {appointment_id} is {appointment.status.value}"
            )
        return appointment

    # ------------------------------------------------------------------ waitlist

    def join_waitlist(
        self,
        patient_id: str,
        practitioner: str,
        *,
        added_at: datetime,
        kind: str = "consultation",
        earliest: date | None = None,
        latest: date | None = None,
    ) -> WaitlistEntry:
        """Put a patient on the waitlist of ``practitioner``."""
        self._check_patient_exists(patient_id)
        self._check_practitioner(practitioner)
        default_duration(kind)
        entry = WaitlistEntry(patient_id, practitioner, kind, added_at, earliest, latest)
        return self.waitlist.add(entry)

    def waitlist_candidates(self, appointment_id: str) -> list[WaitlistEntry]:
        """Who could take the slot of this appointment, in serving order."""
        appointment = self.get(appointment_id)
        return self.waitlist.candidates_for(appointment.practitioner, appointment.start.date())

    # ------------------------------------------------------------------ reporting

    def cancellations(self, patient_id: str) -> list[Appointment]:
        """The patient's cancelled appointments, in time order."""
        return [
            a
            for a in self._ledger.for_patient(patient_id)
            if a.status is AppointmentStatus.CANCELLED
        ]

    def utilisation(self, practitioner: str, day: date) -> float:
        """Share of the day's opening time the practitioner has booked (0.0 to 1.0)."""
        self._check_practitioner(practitioner)
        open_minutes = sum(w.duration_minutes for w in self.calendar.open_windows(day))
        if open_minutes == 0:
            return 0.0
        booked = sum(
            a.slot.duration_minutes
            for a in self.appointments_on(day, practitioner)
            if a.status is not AppointmentStatus.NO_SHOW
        )
        return booked / open_minutes

    def fees_charged(self, patient_id: str) -> list[Decimal]:
        """The cancellation fees charged to the patient, one per cancelled appointment."""
        return [a.cancellation_fee for a in self.cancellations(patient_id)]
