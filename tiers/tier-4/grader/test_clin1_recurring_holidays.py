"""CLIN-1: recurring annual holidays with observed weekdays."""

from datetime import date

import pytest

from calendar_core import CalendarError, ClinicCalendar, HolidayCalendar


def _christmas():
    holidays = HolidayCalendar()
    holidays.add_recurring(12, 25, "Christmas Day")
    return holidays


def test_recurring_holiday_applies_every_year():
    holidays = _christmas()
    for year in (2024, 2025, 2031):
        assert holidays.is_holiday(date(year, 12, 25))
        assert holidays.name_of(date(year, 12, 25)) == "Christmas Day"
    assert not holidays.is_holiday(date(2024, 12, 24))  # 25th is a Wednesday
    assert not holidays.is_holiday(date(2024, 12, 26))
    holidays.add(date(2031, 12, 25), "Clinic closed: Christmas")
    assert holidays.name_of(date(2031, 12, 25)) == "Clinic closed: Christmas"
    assert holidays.name_of(date(2030, 12, 25)) == "Christmas Day"


def test_saturday_holiday_is_observed_on_friday():
    holidays = _christmas()
    assert holidays.name_of(date(2027, 12, 24)) == "Christmas Day (observed)"
    assert holidays.name_of(date(2027, 12, 25)) == "Christmas Day"
    assert not holidays.is_holiday(date(2027, 12, 27))
    assert ClinicCalendar(holidays=holidays).is_closed_on(date(2027, 12, 24))


def test_sunday_holiday_is_observed_on_monday_and_listed():
    holidays = _christmas()
    holidays.add_recurring(1, 1, "New Year's Day")
    assert holidays.name_of(date(2022, 12, 26)) == "Christmas Day (observed)"
    assert not holidays.is_holiday(date(2022, 12, 23))
    assert holidays.between(date(2022, 12, 20), date(2023, 1, 3)) == [
        (date(2022, 12, 25), "Christmas Day"),
        (date(2022, 12, 26), "Christmas Day (observed)"),
        (date(2023, 1, 1), "New Year's Day"),
        (date(2023, 1, 2), "New Year's Day (observed)"),
    ]


@pytest.mark.parametrize(
    ("month", "day", "name"),
    [(13, 1, "Bad month"), (0, 10, "Bad month"), (4, 31, "No such day"),
     (2, 30, "No such day"), (2, 29, "Leap day"), (7, 4, "  ")],
    ids=["month-13", "month-0", "april-31", "february-30", "february-29", "blank-name"],
)
def test_invalid_recurring_holidays_are_rejected(month, day, name):
    holidays = HolidayCalendar()
    with pytest.raises(CalendarError):
        holidays.add_recurring(month, day, name)
    assert holidays.between(date(2024, 1, 1), date(2024, 12, 31)) == []
