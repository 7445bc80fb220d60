"""CLIN-2: working hours from a one-line text spec."""

from datetime import date, datetime, time

import pytest

from calendar_core import CalendarError, WorkingHours


def test_from_spec_parses_clauses_and_ranges():
    hours = WorkingHours.from_spec("Mon-Fri 08:00-12:00,13:00-17:00; Sat 09:00-12:00")
    assert hours == WorkingHours.standard()
    relaxed = WorkingHours.from_spec("  tue  07:30-11:00 , 12:00-12:30 ;SUN 10:00-11:00 ")
    assert relaxed.ranges_for_weekday(1) == (
        (time(7, 30), time(11, 0)),
        (time(12, 0), time(12, 30)),
    )
    assert relaxed.ranges_for_weekday(6) == ((time(10, 0), time(11, 0)),)
    assert not relaxed.is_open_on(date(2024, 3, 4))  # Monday not mentioned
    assert relaxed.is_open_at(datetime(2024, 3, 10, 10, 30))
    touching = WorkingHours.from_spec("Wed 08:00-12:00,12:00-13:00")
    assert touching.is_open_at(datetime(2024, 3, 6, 12, 0))


def test_empty_spec_means_closed_all_week():
    hours = WorkingHours.from_spec("   ")
    assert hours == WorkingHours.closed()
    assert hours.to_spec() == ""


def test_to_spec_is_canonical():
    assert WorkingHours.standard().to_spec() == (
        "Mon-Fri 08:00-12:00,13:00-17:00; Sat 09:00-12:00"
    )
    spec = WorkingHours.from_spec(
        "Sun 09:00-10:00; Sat 09:00-10:00; Wed 13:00-17:00,08:00-12:00; Mon 08:00-12:00,13:00-17:00"
    ).to_spec()
    assert spec == (
        "Mon 08:00-12:00,13:00-17:00; Wed 08:00-12:00,13:00-17:00; Sat-Sun 09:00-10:00"
    )
    hours = WorkingHours({2: [(time(7, 0), time(9, 30))], 3: [(time(7, 0), time(9, 30))],
                          4: [(time(7, 0), time(9, 0))]})
    assert hours.to_spec() == "Wed-Thu 07:00-09:30; Fri 07:00-09:00"
    assert WorkingHours.from_spec(hours.to_spec()) == hours


@pytest.mark.parametrize(
    "spec",
    [
        "Mon-Fry 08:00-12:00",
        "Fri-Mon 08:00-12:00",
        "Mon 8:00-12:00",
        "Mon 12:00-12:00",
        "Mon 08:00-12:00,11:00-13:00",
        "Mon 08:00-12:00; Mon-Tue 13:00-17:00",
        "Mon",
        "Mon 08:00",
    ],
    ids=["unknown-day", "backwards-days", "short-time", "empty-range", "overlap",
         "day-twice", "no-ranges", "no-end"],
)
def test_invalid_specs_are_rejected(spec):
    with pytest.raises(CalendarError):
        WorkingHours.from_spec(spec)
