"""CLIN-1: recurring annual holidays with observed weekdays.

The method's name (`params["annual_method"]`) and the observed day's label and its style (the
derived `params["observed_suffix"]`) are seeded.
"""

from datetime import date

import pytest


def _recurring(holidays, params, month, day, name):
    getattr(holidays, params["annual_method"])(month, day, name)


def _observed(name, params):
    return name + params["observed_suffix"]


@pytest.fixture
def christmas(calendar_core, params):
    holidays = calendar_core.HolidayCalendar()
    _recurring(holidays, params, 12, 25, "Christmas Day")
    return holidays


def test_recurring_holiday_applies_every_year(christmas):
    for year in (2024, 2025, 2031):
        assert christmas.is_holiday(date(year, 12, 25)) is True
        assert christmas.name_of(date(year, 12, 25)) == "Christmas Day"
    assert christmas.is_holiday(date(2024, 12, 24)) is False  # the 25th is a Wednesday
    assert christmas.is_holiday(date(2024, 12, 26)) is False
    christmas.add(date(2031, 12, 25), "Clinic closed: Christmas")
    assert christmas.name_of(date(2031, 12, 25)) == "Clinic closed: Christmas"
    assert christmas.name_of(date(2030, 12, 25)) == "Christmas Day"


def test_saturday_holiday_is_observed_on_friday(calendar_core, christmas, params):
    assert christmas.name_of(date(2027, 12, 24)) == _observed("Christmas Day", params)
    assert christmas.name_of(date(2027, 12, 25)) == "Christmas Day"
    assert christmas.is_holiday(date(2027, 12, 27)) is False
    assert calendar_core.ClinicCalendar(holidays=christmas).is_closed_on(date(2027, 12, 24))


def test_sunday_holiday_is_observed_on_monday_and_listed(christmas, params):
    _recurring(christmas, params, 1, 1, "New Year's Day")
    assert christmas.name_of(date(2022, 12, 26)) == _observed("Christmas Day", params)
    assert christmas.is_holiday(date(2022, 12, 23)) is False
    assert christmas.between(date(2022, 12, 20), date(2023, 1, 3)) == [
        (date(2022, 12, 25), "Christmas Day"),
        (date(2022, 12, 26), _observed("Christmas Day", params)),
        (date(2023, 1, 1), "New Year's Day"),
        (date(2023, 1, 2), _observed("New Year's Day", params)),
    ]


def test_observed_day_across_a_year_boundary(calendar_core, params):
    """New Year's Day 2022 is a Saturday: it is observed on Friday 31 December 2021. The last
    day of 2023 is a Sunday: it is observed on Monday 1 January 2024."""
    new_year = calendar_core.HolidayCalendar()
    _recurring(new_year, params, 1, 1, "New Year's Day")
    assert new_year.name_of(date(2021, 12, 31)) == _observed("New Year's Day", params)
    assert new_year.between(date(2021, 12, 30), date(2022, 1, 3)) == [
        (date(2021, 12, 31), _observed("New Year's Day", params)),
        (date(2022, 1, 1), "New Year's Day"),
    ]
    clinic = calendar_core.ClinicCalendar(holidays=new_year)
    assert clinic.next_open_day(date(2021, 12, 30)) == date(2022, 1, 3)

    year_end = calendar_core.HolidayCalendar()
    _recurring(year_end, params, 12, 31, "Year end")
    assert year_end.name_of(date(2024, 1, 1)) == _observed("Year end", params)
    assert year_end.between(date(2023, 12, 30), date(2024, 1, 2)) == [
        (date(2023, 12, 31), "Year end"),
        (date(2024, 1, 1), _observed("Year end", params)),
    ]


def test_names_are_trimmed_and_between_includes_both_ends(calendar_core, params):
    holidays = calendar_core.HolidayCalendar()
    _recurring(holidays, params, 7, 4, "  Founders' Day \t")
    assert holidays.name_of(date(2024, 7, 4)) == "Founders' Day"
    _recurring(holidays, params, 12, 25, "Christmas Day")
    # 4 July 2027 is a Sunday (observed Monday the 5th); Christmas 2027 a Saturday.
    assert holidays.between(date(2027, 7, 4), date(2027, 7, 5)) == [
        (date(2027, 7, 4), "Founders' Day"),
        (date(2027, 7, 5), _observed("Founders' Day", params)),
    ]
    assert holidays.between(date(2027, 12, 24), date(2027, 12, 24)) == [
        (date(2027, 12, 24), _observed("Christmas Day", params)),
    ]
    assert holidays.between(date(2027, 7, 6), date(2027, 12, 23)) == []


@pytest.mark.parametrize(
    ("month", "day", "name"),
    [(13, 1, "Bad month"), (0, 10, "Bad month"), (4, 31, "No such day"),
     (2, 30, "No such day"), (2, 29, "Leap day"), (7, 4, "  "), (7, 4, "")],
    ids=["month-13", "month-0", "april-31", "february-30", "february-29", "blank-name",
         "empty-name"],
)
def test_invalid_recurring_holidays_are_rejected(subject, calendar_core, params, month, day, name):
    holidays = calendar_core.HolidayCalendar()
    add = getattr(holidays, params["annual_method"])  # a missing method fails here, not below
    with subject.raises("calendar_core.CalendarError"):
        add(month, day, name)
    assert holidays.between(date(2024, 1, 1), date(2024, 12, 31)) == []
