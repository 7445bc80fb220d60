"""The patient registry: the only way other packages create or change patient records."""

from __future__ import annotations

from dataclasses import replace
from datetime import date

from .errors import PatientNotFoundError, PatientValidationError
from .models import ContactPreference, Patient
from .storage import PatientStore
from .validation import (
    normalize_phone,
    validate_date_of_birth,
    validate_email,
    validate_language,
    validate_name,
)


class PatientRegistry:
    """Registers, looks up and updates patients.

    >>> registry = PatientRegistry()
    >>> ana = registry.register("Ana", "Silva", date(1990, 4, 2), phone="+44 7700 900123",
    ...                         today=date(2024, 3, 1))
    >>> ana.patient_id, ana.phone
    ('P0001', '+447700900123')
    """

    def __init__(self) -> None:
        self._store = PatientStore()

    def register(
        self,
        first_name: str,
        last_name: str,
        date_of_birth: date,
        *,
        phone: str | None = None,
        email: str | None = None,
        contact_preference: ContactPreference = ContactPreference.SMS,
        language: str = "en",
        today: date | None = None,
    ) -> Patient:
        """Validate and store a new patient; returns the stored record.

        ``today`` is the registration day (default: the real current date); it is used to
        check the date of birth.
        """
        today = today or date.today()
        patient = Patient(
            patient_id="",
            first_name=validate_name(first_name, "first name"),
            last_name=validate_name(last_name, "last name"),
            date_of_birth=validate_date_of_birth(date_of_birth, today),
            phone=normalize_phone(phone) if phone else None,
            email=validate_email(email) if email else None,
            contact_preference=ContactPreference(contact_preference),
            language=validate_language(language),
        )
        _check_reachable(patient)
        patient.patient_id = self._store.new_id()
        self._store.put(patient)
        return patient

    def get(self, patient_id: str) -> Patient:
        """The patient with that id; raises :class:`PatientNotFoundError` if unknown."""
        patient = self._store.get(patient_id)
        if patient is None:
            raise PatientNotFoundError(f"no patient with id {patient_id!r}")
        return patient

    def exists(self, patient_id: str) -> bool:
        """True if a patient with that id is registered."""
        return self._store.get(patient_id) is not None

    def search(self, text: str) -> list[Patient]:
        """Patients whose full name contains ``text``, case-insensitively, by id."""
        needle = text.strip().casefold()
        if not needle:
            return []
        return [p for p in self._store if needle in p.full_name.casefold()]

    def update_contact(
        self,
        patient_id: str,
        *,
        phone: str | None = None,
        email: str | None = None,
        contact_preference: ContactPreference | None = None,
    ) -> Patient:
        """Change a patient's phone, e-mail or preferred channel.

        Arguments left as ``None`` keep their current value. The result must still leave
        the patient reachable on their preferred channel; otherwise nothing changes and
        :class:`PatientValidationError` is raised.
        """
        current = self.get(patient_id)
        updated = replace(
            current,
            phone=normalize_phone(phone) if phone else current.phone,
            email=validate_email(email) if email else current.email,
            contact_preference=(
                ContactPreference(contact_preference)
                if contact_preference is not None
                else current.contact_preference
            ),
        )
        _check_reachable(updated)
        self._store.put(updated)
        return updated

    def all(self) -> list[Patient]:
        """Every registered patient, by id."""
        return list(self._store)

    def __len__(self) -> int:
        return len(self._store)


def _check_reachable(patient: Patient) -> None:
    """The preferred channel must have an address on file."""
    if patient.contact_preference is ContactPreference.EMAIL and not patient.email:
        raise PatientValidationError("e-mail is the preferred channel but no e-mail was given")
    if patient.contact_preference is not ContactPreference.EMAIL and not patient.phone:
        raise PatientValidationError(
            f"{patient.contact_preference.value} is the preferred channel but no phone was given"
        )
