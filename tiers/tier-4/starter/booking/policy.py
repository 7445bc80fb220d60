"""What it costs a patient to cancel."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from decimal import Decimal

from .errors import CancellationError
from .models import Appointment

ZERO = Decimal("0.00")


@dataclass(frozen=True)
class CancellationPolicy:
    """A flat fee for cancelling with less than ``late_window`` notice.

    Notice is the time from the cancellation to the appointment's start. An appointment
    cannot be cancelled at or after its start: that is a no-show, not a cancellation.
    """

    late_window: timedelta = timedelta(hours=24)
    late_fee: Decimal = Decimal("25.00")

    def notice(self, appointment: Appointment, cancelled_at: datetime) -> timedelta:
        """Time between the cancellation and the appointment's start."""
        return appointment.start - cancelled_at

    def fee_for(self, appointment: Appointment, cancelled_at: datetime) -> Decimal:
        """The fee due for cancelling ``appointment`` at ``cancelled_at``."""
        notice = self.notice(appointment, cancelled_at)
        if notice <= timedelta(0):
            raise CancellationError(
                f"appointment {appointment.appointment_id} has already started;"
                " mark it as a no-show instead"
            )
        if notice < self.late_window:
            return self.late_fee
        return ZERO
