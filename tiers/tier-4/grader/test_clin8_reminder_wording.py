"""CLIN-8 (as amended by A1): friendlier reminder wording, 24-hour clock in every language."""

from datetime import date, datetime

from booking import Appointment
from calendar_core import TimeSlot
from patients import ContactPreference, Patient
from reminders import render_reminder

ANA = Patient("P0001", "Ana", "Silva", date(1990, 4, 2), phone="+447700900123")
LUCIA = Patient("P0003", "Lucía", "Gómez", date(1988, 2, 29), phone="+34612345678",
                language="es")


def _appt(start, kind="consultation", practitioner="Dr Patel", patient_id="P0001"):
    return Appointment("A0007", patient_id, practitioner, TimeSlot.from_duration(start, 20), kind)


def test_english_afternoon_reminder():
    text = render_reminder(_appt(datetime(2024, 3, 5, 14, 30)), ANA)
    assert text == (
        "Hi Ana, your consultation with Dr Patel is on Tuesday 5 March 2024 at 14:30."
        " Reply C to cancel."
    )


def test_english_morning_and_noon_times_use_the_24_hour_clock():
    text = render_reminder(_appt(datetime(2024, 3, 9, 9, 5), kind="follow-up"), ANA)
    assert text == (
        "Hi Ana, your follow-up with Dr Patel is on Saturday 9 March 2024 at 09:05."
        " Reply C to cancel."
    )
    noon = render_reminder(_appt(datetime(2024, 11, 20, 12, 0), practitioner="Dr Osei"), ANA)
    assert noon == (
        "Hi Ana, your consultation with Dr Osei is on Wednesday 20 November 2024 at 12:00."
        " Reply C to cancel."
    )
    assert "AM" not in text and "PM" not in noon


def test_spanish_reminder():
    appt = _appt(datetime(2024, 3, 6, 9, 30), practitioner="Dr Osei", patient_id="P0003")
    assert render_reminder(appt, LUCIA) == (
        "Hola Lucía, su cita de consultation con Dr Osei es el miércoles 6 de marzo de 2024"
        " a las 09:30. Responda C para cancelar."
    )
    late = _appt(datetime(2024, 8, 31, 16, 45), kind="vaccination", patient_id="P0003")
    assert render_reminder(late, LUCIA) == (
        "Hola Lucía, su cita de vaccination con Dr Patel es el sábado 31 de agosto de 2024"
        " a las 16:45. Responda C para cancelar."
    )


def test_languages_without_a_template_fall_back_to_english():
    zoe = Patient("P0009", "Zoé", "Martin", date(1980, 1, 1), email="zoe@example.org",
                  contact_preference=ContactPreference.EMAIL, language="fr")
    text = render_reminder(_appt(datetime(2024, 12, 2, 8, 0), patient_id="P0009"), zoe)
    assert text == (
        "Hi Zoé, your consultation with Dr Patel is on Monday 2 December 2024 at 08:00."
        " Reply C to cancel."
    )
