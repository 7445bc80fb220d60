"""CLIN-8 (as amended by A1): friendlier reminder wording, the 24-hour clock in every language
and a new reply keyword. Seeded: the English greeting and the keyword that cancels."""

from datetime import date, datetime

import pytest


@pytest.fixture
def render(calendar_core, booking, patients, reminders):
    """render(start, patient_fields, kind, practitioner): the reminder text."""

    def compute(start, patient, kind="consultation", practitioner="Dr Patel"):
        slot = calendar_core.TimeSlot.from_duration(start, 20)
        appointment = booking.Appointment("A0007", patient[0], practitioner, slot, kind)
        return reminders.render_reminder(appointment, patients.Patient(*patient[:4], **patient[4]))

    return compute


ANA = ("P0001", "Ana", "Silva", date(1990, 4, 2), {"phone": "+447700900123"})
LUCIA = ("P0003", "Lucía", "Gómez", date(1988, 2, 29), {"phone": "+34612345678", "language": "es"})


def _en(params, rest):
    return f"{params['en_greeting']} {rest} Reply {params['cancel_keyword']} to cancel."


def _es(params, rest):
    return f"Hola {rest} Responda {params['cancel_keyword']} para cancelar."


def test_english_afternoon_reminder(render, params):
    assert render(datetime(2024, 3, 5, 14, 30), ANA) == _en(
        params, "Ana, your consultation with Dr Patel is on Tuesday 5 March 2024 at 14:30."
    )


def test_english_morning_and_noon_times_use_the_24_hour_clock(render, params):
    text = render(datetime(2024, 3, 9, 9, 5), ANA, kind="follow-up")
    assert text == _en(
        params, "Ana, your follow-up with Dr Patel is on Saturday 9 March 2024 at 09:05."
    )
    noon = render(datetime(2024, 11, 20, 12, 0), ANA, practitioner="Dr Osei")
    assert noon == _en(
        params, "Ana, your consultation with Dr Osei is on Wednesday 20 November 2024 at 12:00."
    )
    assert "AM" not in text and "PM" not in noon


def test_spanish_reminder(render, params):
    assert render(datetime(2024, 3, 6, 9, 30), LUCIA, practitioner="Dr Osei") == _es(
        params,
        "Lucía, su cita de consultation con Dr Osei es el miércoles 6 de marzo de 2024"
        " a las 09:30.",
    )
    assert render(datetime(2024, 8, 31, 16, 45), LUCIA, kind="vaccination") == _es(
        params,
        "Lucía, su cita de vaccination con Dr Patel es el sábado 31 de agosto de 2024"
        " a las 16:45.",
    )


def test_languages_without_a_template_fall_back_to_english(render, patients, params):
    email = patients.ContactPreference.EMAIL
    zoe = ("P0009", "Zoé", "Martin", date(1980, 1, 1),
           {"email": "zoe@example.org", "contact_preference": email, "language": "fr"})
    assert render(datetime(2024, 12, 2, 8, 0), zoe) == _en(
        params, "Zoé, your consultation with Dr Patel is on Monday 2 December 2024 at 08:00."
    )
