"""Keeping the outbox in step with the appointment book."""

from __future__ import annotations

from datetime import datetime, timedelta

from booking import AppointmentNotFoundError, Scheduler

from .outbox import Outbox
from .planner import ReminderPlanner


class ReminderService:
    """Plans reminders for upcoming appointments and withdraws stale ones."""

    def __init__(self, scheduler: Scheduler, planner: ReminderPlanner, outbox: Outbox) -> None:
        self.scheduler = scheduler
        self.planner = planner
        self.outbox = outbox

    def refresh(self, now: datetime, horizon: timedelta = timedelta(days=3)) -> int:
        """Bring the outbox up to date as of ``now``.

        Pending reminders of appointments that are no longer BOOKED are dropped, then
        reminders are planned for the BOOKED appointments starting within ``horizon``
        after ``now``. Returns how many reminders were newly queued.
        """
        for reminder in self.outbox.pending():
            try:
                appointment = self.scheduler.get(reminder.appointment_id)
            except AppointmentNotFoundError:
                self.outbox.discard_for(reminder.appointment_id)
                continue
            if not appointment.is_active:
                self.outbox.discard_for(reminder.appointment_id)
        upcoming = self.scheduler.appointments_between(now, now + horizon)
        queued = 0
        for reminder in self.planner.plan_all(upcoming, now):
            if self.outbox.queue(reminder):
                queued += 1
        return queued
