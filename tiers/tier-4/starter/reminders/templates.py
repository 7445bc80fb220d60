"""The wording of the messages sent to patients."""

from __future__ import annotations

from booking import Appointment
from calendar_core import format_date, format_time
from patients import Patient

#: Reminder wording per language; placeholders are filled by :func:`render_reminder`.
REMINDER_TEMPLATES: dict[str, str] = {
    "en": (
        "Hello {first_name}, this is a reminder of your {kind} appointment"
        " with {practitioner} on {date} at {time}."
    ),
    "es": (
        "Hola {first_name}, le recordamos su cita de {kind} con {practitioner}"
        " el {date} a las {time}."
    ),
}

#: Cancellation notice wording per language.
CANCELLATION_TEMPLATES: dict[str, str] = {
    "en": "Hello {first_name}, your {kind} appointment on {date} at {time} has been cancelled.",
    "es": "Hola {first_name}, su cita de {kind} del {date} a las {time} ha sido cancelada.",
}

FALLBACK_LANGUAGE = "en"


def render_reminder(appointment: Appointment, patient: Patient) -> str:
    """The reminder text for ``appointment``, in the patient's language.

    Languages without a template fall back to English.
    """
    template = REMINDER_TEMPLATES.get(patient.language, REMINDER_TEMPLATES[FALLBACK_LANGUAGE])
    return template.format(
        first_name=patient.first_name,
        kind=appointment.kind,
        practitioner=appointment.practitioner,
        date=format_date(appointment.start.date()),
        time=format_time(appointment.start),
    )


def render_cancellation(appointment: Appointment, patient: Patient) -> str:
    """The notice sent when ``appointment`` is cancelled, in the patient's language."""
    template = CANCELLATION_TEMPLATES.get(
        patient.language, CANCELLATION_TEMPLATES[FALLBACK_LANGUAGE]
    )
    return template.format(
        first_name=patient.first_name,
        kind=appointment.kind,
        date=format_date(appointment.start.date()),
        time=format_time(appointment.start),
    )
