"""The patient record."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from enum import StrEnum


class ContactPreference(StrEnum):
    """How the patient wants the clinic to reach them."""

    SMS = "sms"
    EMAIL = "email"
    PHONE = "phone"


@dataclass
class Patient:
    """A registered patient.

    ``phone`` is stored normalised (see :func:`patients.validation.normalize_phone`),
    ``email`` lower-cased; either may be ``None`` when the patient did not give one.
    ``language`` is the language reminders are written in (``"en"`` or ``"es"``).
    """

    patient_id: str
    first_name: str
    last_name: str
    date_of_birth: date
    phone: str | None = None
    email: str | None = None
    contact_preference: ContactPreference = ContactPreference.SMS
    language: str = "en"

    @property
    def full_name(self) -> str:
        """First and last name separated by a space."""
        return f"{self.first_name} {self.last_name}"

    def age_on(self, day: date) -> int:
        """Age in completed years on ``day``.

        Someone born on 29 February has their birthday on 1 March in other years.
        """
        years = day.year - self.date_of_birth.year
        if (day.month, day.day) < (self.date_of_birth.month, self.date_of_birth.day):
            years -= 1
        return years
