"""Baseline: what the starter's visible tests/test_calendar_core.py checks, through the bridge."""

from datetime import date, datetime, time


def test_parse_and_format_round_trip(calendar_core):
    moment = calendar_core.parse_datetime("2024-03-05 09:30")
    assert moment == datetime(2024, 3, 5, 9, 30)
    assert calendar_core.format_datetime(moment) == "2024-03-05 09:30"


def test_parse_time_is_strict(subject, calendar_core):
    for text in ("9:30", "24:00", "12:60", "noon"):
        with subject.raises("calendar_core.CalendarError"):
            calendar_core.parse_time(text)


def test_slots_touching_do_not_overlap(calendar_core):
    first = calendar_core.TimeSlot(datetime(2024, 3, 4, 9, 0), datetime(2024, 3, 4, 9, 20))
    second = calendar_core.TimeSlot.from_duration(datetime(2024, 3, 4, 9, 20), 20)
    assert first.overlaps(second) is False
    assert first.overlaps(calendar_core.TimeSlot.from_duration(datetime(2024, 3, 4, 9, 19), 5))
    assert second.duration_minutes == 20


def test_slot_must_end_after_start(subject, calendar_core):
    with subject.raises("calendar_core.CalendarError"):
        calendar_core.TimeSlot(datetime(2024, 3, 4, 9, 0), datetime(2024, 3, 4, 9, 0))


def test_split_and_subtract(subject, calendar_core):
    window = calendar_core.TimeSlot(datetime(2024, 3, 4, 8, 0), datetime(2024, 3, 4, 9, 0))
    busy = [calendar_core.TimeSlot.from_duration(datetime(2024, 3, 4, 8, 20), 10)]
    free = calendar_core.subtract(window, busy)
    assert [subject.str(s) for s in free] == [
        "2024-03-04 08:00-08:20", "2024-03-04 08:30-09:00",
    ]
    assert len(calendar_core.split(free[1], 20)) == 1


def test_standard_hours_have_a_lunch_break(calendar_core):
    hours = calendar_core.WorkingHours.standard()
    assert hours.is_open_at(datetime(2024, 3, 4, 11, 59)) is True
    assert hours.is_open_at(datetime(2024, 3, 4, 12, 30)) is False
    assert hours.is_open_on(date(2024, 3, 10)) is False  # Sunday
    assert hours.weekly_minutes() == 5 * 480 + 180


def test_overlapping_ranges_are_rejected(subject, calendar_core):
    with subject.raises("calendar_core.CalendarError"):
        calendar_core.WorkingHours({0: [(time(8), time(12)), (time(11), time(13))]})


def test_holiday_calendar_rejects_conflicting_names(subject, calendar_core):
    holidays = calendar_core.HolidayCalendar()
    holidays.add(date(2024, 5, 6), "Early May bank holiday")
    holidays.add(date(2024, 5, 6), "Early May bank holiday")
    with subject.raises("calendar_core.CalendarError"):
        holidays.add(date(2024, 5, 6), "Staff training")
    assert holidays.name_of(date(2024, 5, 6)) == "Early May bank holiday"
    assert len(holidays) == 1


def test_clinic_calendar_closed_on_holidays(calendar_core, clinic_calendar):
    assert clinic_calendar.is_closed_on(date(2024, 3, 29)) is True
    assert clinic_calendar.open_windows(date(2024, 3, 29)) == []
    assert clinic_calendar.next_open_day(date(2024, 3, 28)) == date(2024, 3, 30)
    slot = calendar_core.TimeSlot.from_duration(datetime(2024, 3, 4, 11, 50), 20)
    assert clinic_calendar.is_bookable(slot) is False  # runs into the lunch break


def test_default_clinic_calendar_uses_standard_hours(subject, calendar_core):
    calendar = calendar_core.ClinicCalendar()
    standard = calendar_core.WorkingHours.standard()
    # Remote objects cannot be compared in the judge: compare the weekly schedules as data.
    assert [calendar.hours.ranges_for_weekday(d) for d in range(7)] == [
        standard.ranges_for_weekday(d) for d in range(7)
    ]
    assert len(calendar.holidays) == 0
