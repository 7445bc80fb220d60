"""Fixtures of the hidden tests: a clinic with two practitioners and three adult patients.

The tests run in the judge and reach the clinic's packages only through the `subject` fixture
(remote references to the graded code); every fixture builds its objects there, fresh for each
test. Only the packages' public interface is used.
"""

from datetime import date, datetime

import pytest

TODAY = date(2024, 3, 1)  # a Friday
NOW = datetime(2024, 3, 1, 9, 0)


@pytest.fixture
def calendar_core(subject):
    return subject.module("calendar_core")


@pytest.fixture
def patients(subject):
    return subject.module("patients")


@pytest.fixture
def booking(subject):
    return subject.module("booking")


@pytest.fixture
def reminders(subject):
    return subject.module("reminders")


@pytest.fixture
def registry(patients):
    reg = patients.PatientRegistry()
    reg.register("Ana", "Silva", date(1990, 4, 2), phone="+44 7700 900123", today=TODAY)
    reg.register(
        "Ben",
        "Okafor",
        date(1975, 11, 30),
        email="Ben.Okafor@Example.org",
        contact_preference=patients.ContactPreference.EMAIL,
        today=TODAY,
    )
    reg.register(
        "Lucía", "Gómez", date(1988, 2, 29), phone="+34 612 345 678", language="es", today=TODAY
    )
    return reg


@pytest.fixture
def clinic_calendar(calendar_core):
    holidays = calendar_core.HolidayCalendar({date(2024, 3, 29): "Good Friday"})
    return calendar_core.ClinicCalendar(calendar_core.WorkingHours.standard(), holidays)


@pytest.fixture
def scheduler(booking, clinic_calendar, registry):
    return booking.Scheduler(clinic_calendar, registry, ["Dr Patel", "Dr Osei"])

