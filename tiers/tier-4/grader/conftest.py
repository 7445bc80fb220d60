"""Fixtures of the hidden tests: a clinic with two practitioners and three adult patients.

Only the public interface of the packages is used.
"""

from datetime import date, datetime

import pytest

from booking import Scheduler
from calendar_core import ClinicCalendar, HolidayCalendar, WorkingHours
from patients import ContactPreference, PatientRegistry

TODAY = date(2024, 3, 1)  # a Friday
NOW = datetime(2024, 3, 1, 9, 0)


@pytest.fixture
def registry():
    reg = PatientRegistry()
    reg.register("Ana", "Silva", date(1990, 4, 2), phone="+44 7700 900123", today=TODAY)
    reg.register(
        "Ben",
        "Okafor",
        date(1975, 11, 30),
        email="ben.okafor@example.org",
        contact_preference=ContactPreference.EMAIL,
        today=TODAY,
    )
    reg.register(
        "Lucía", "Gómez", date(1988, 2, 29), phone="+34 612 345 678", language="es", today=TODAY
    )
    return reg


@pytest.fixture
def scheduler(registry):
    calendar = ClinicCalendar(
        WorkingHours.standard(), HolidayCalendar({date(2024, 3, 29): "Good Friday"})
    )
    return Scheduler(calendar, registry, ["Dr Patel", "Dr Osei"])
