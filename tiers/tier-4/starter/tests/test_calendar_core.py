from datetime import date, datetime, time

import pytest

from calendar_core import (
    CalendarError,
    ClinicCalendar,
    HolidayCalendar,
    TimeSlot,
    WorkingHours,
    format_datetime,
    parse_datetime,
    parse_time,
    split,
    subtract,
)


def test_parse_and_format_round_trip():
    moment = parse_datetime("2024-03-05 09:30")
    assert moment == datetime(2024, 3, 5, 9, 30)
    assert format_datetime(moment) == "2024-03-05 09:30"


@pytest.mark.parametrize("text", ["9:30", "24:00", "12:60", "noon"])
def test_parse_time_is_strict(text):
    with pytest.raises(CalendarError):
        parse_time(text)


def test_slots_touching_do_not_overlap():
    first = TimeSlot(datetime(2024, 3, 4, 9, 0), datetime(2024, 3, 4, 9, 20))
    second = TimeSlot.from_duration(datetime(2024, 3, 4, 9, 20), 20)
    assert not first.overlaps(second)
    assert first.overlaps(TimeSlot.from_duration(datetime(2024, 3, 4, 9, 19), 5))
    assert second.duration_minutes == 20


def test_slot_must_end_after_start():
    with pytest.raises(CalendarError):
        TimeSlot(datetime(2024, 3, 4, 9, 0), datetime(2024, 3, 4, 9, 0))


def test_split_and_subtract():
    window = TimeSlot(datetime(2024, 3, 4, 8, 0), datetime(2024, 3, 4, 9, 0))
    busy = [TimeSlot.from_duration(datetime(2024, 3, 4, 8, 20), 10)]
    free = subtract(window, busy)
    assert [str(s) for s in free] == ["2024-03-04 08:00-08:20", "2024-03-04 08:30-09:00"]
    assert len(split(free[1], 20)) == 1


def test_standard_hours_have_a_lunch_break():
    hours = WorkingHours.standard()
    assert hours.is_open_at(datetime(2024, 3, 4, 11, 59))
    assert not hours.is_open_at(datetime(2024, 3, 4, 12, 30))
    assert not hours.is_open_on(date(2024, 3, 10))  # Sunday
    assert hours.weekly_minutes() == 5 * 480 + 180


def test_overlapping_ranges_are_rejected():
    with pytest.raises(CalendarError):
        WorkingHours({0: [(time(8), time(12)), (time(11), time(13))]})


def test_holiday_calendar_rejects_conflicting_names():
    holidays = HolidayCalendar()
    holidays.add(date(2024, 5, 6), "Early May bank holiday")
    holidays.add(date(2024, 5, 6), "Early May bank holiday")
    with pytest.raises(CalendarError):
        holidays.add(date(2024, 5, 6), "Staff training")
    assert holidays.name_of(date(2024, 5, 6)) == "Early May bank holiday"
    assert len(holidays) == 1


def test_clinic_calendar_closed_on_holidays(clinic_calendar):
    assert clinic_calendar.is_closed_on(date(2024, 3, 29))
    assert clinic_calendar.open_windows(date(2024, 3, 29)) == []
    assert clinic_calendar.next_open_day(date(2024, 3, 28)) == date(2024, 3, 30)
    slot = TimeSlot.from_duration(datetime(2024, 3, 4, 11, 50), 20)
    assert not clinic_calendar.is_bookable(slot)  # runs into the lunch break


def test_default_clinic_calendar_uses_standard_hours():
    calendar = ClinicCalendar()
    assert calendar.hours == WorkingHours.standard()
    assert len(calendar.holidays) == 0
