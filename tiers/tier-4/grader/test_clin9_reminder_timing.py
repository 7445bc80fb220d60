"""CLIN-9: two reminders per appointment, never during quiet hours.

Seeded: the two default offsets and the quiet hours; reminders in quiet hours move to the hour
before quiet hours start, the evening before. The tests' names are the original draw's.
"""

from datetime import datetime, timedelta

import pytest

NOW = datetime(2024, 3, 1, 9, 0)
HOUR = timedelta(hours=1)


@pytest.fixture
def plan(calendar_core, booking):
    """plan(planner, start, now): the planner's reminders for a visit of Ana's at `start`."""

    def compute(planner, start, now=NOW):
        slot = calendar_core.TimeSlot.from_duration(start, 20)
        appointment = booking.Appointment("A0005", "P0001", "Dr Patel", slot, "consultation")
        return planner.plan_for(appointment, now)

    return compute


@pytest.fixture
def send_times(plan):
    """send_times(planner, start, now): when the planner sends the reminders of a visit."""

    def compute(planner, start, now=NOW):
        return [r.send_at for r in plan(planner, start, now)]

    return compute


def _hours(params):
    first = timedelta(hours=params["reminder_first_h"])
    last = timedelta(hours=params["reminder_last_h"])
    return first, last, params["quiet_start_h"], params["quiet_end_h"]


def _evening_before(day, params):
    """Where a reminder in the quiet hours that end on `day` goes."""
    return datetime(day.year, day.month, day.day, params["quiet_start_h"] - 1) - timedelta(days=1)


def test_default_offsets_are_48_and_2_hours(reminders, registry, send_times, params):
    first, last, _, _ = _hours(params)
    assert reminders.DEFAULT_OFFSETS == (first, last)
    start = datetime(2024, 3, 6, 12, 0)
    planner = reminders.ReminderPlanner(registry)
    assert send_times(planner, start) == [start - first, start - last]
    backwards = reminders.ReminderPlanner(registry, offsets=(last, first))
    assert send_times(backwards, start) == [start - first, start - last]


def test_early_morning_reminder_moves_to_the_previous_evening(
    reminders, registry, plan, send_times, params
):
    first, last, _, quiet_end = _hours(params)
    planner = reminders.ReminderPlanner(registry)
    # The last reminder of this visit falls in the last hour of the night.
    start = datetime(2024, 3, 6, quiet_end, 0) + last - HOUR
    evening = _evening_before(start, params)
    assert send_times(planner, start) == [start - first, evening]
    later = start + timedelta(minutes=59)
    assert send_times(planner, later) == [later - first, evening]
    [moved] = [r for r in plan(planner, later) if r.send_at == evening]
    assert moved.address == "+447700900123"  # still to the patient's own channel
    # The end of the quiet hours is not quiet.
    assert send_times(planner, start + HOUR) == [start + HOUR - first, start + HOUR - last]


def test_late_evening_reminder_moves_to_20_00_the_same_day(
    reminders, registry, send_times, params
):
    """The name is the original draw's: the evening hour is seeded with the quiet hours."""
    _, _, quiet_start, _ = _hours(params)
    start = datetime(2024, 3, 6, 9, 30)
    quiet_from = datetime(2024, 3, 5, quiet_start, 0)
    evening = datetime(2024, 3, 5, quiet_start - 1, 0)

    def planner(send_at):
        return reminders.ReminderPlanner(registry, offsets=(start - send_at,))

    assert send_times(planner(quiet_from), start) == [evening]
    assert send_times(planner(quiet_from + timedelta(minutes=30)), start) == [evening]
    last_open = quiet_from - timedelta(minutes=1)
    assert send_times(planner(last_open), start) == [last_open]
    # Half an hour before quiet hours stays; ten minutes into them moves to before it.
    both = reminders.ReminderPlanner(
        registry, offsets=(start - quiet_from + timedelta(minutes=30),
                           start - quiet_from - timedelta(minutes=10)))
    assert send_times(both, start) == [evening, quiet_from - timedelta(minutes=30)]


def test_reminders_landing_on_the_same_time_are_merged(reminders, registry, send_times, params):
    _, _, quiet_start, quiet_end = _hours(params)
    start = datetime(2024, 3, 6, 9, 30)
    in_quiet = [
        datetime(2024, 3, 5, quiet_start, 0),
        datetime(2024, 3, 5, 23, 30),
        datetime(2024, 3, 6, quiet_end - 1, 0),
    ]
    planner = reminders.ReminderPlanner(registry, offsets=[start - t for t in in_quiet])
    assert send_times(planner, start) == [datetime(2024, 3, 5, quiet_start - 1, 0)]


def test_moved_reminders_in_the_past_are_dropped(reminders, registry, send_times, params):
    _, last, _, quiet_end = _hours(params)
    planner = reminders.ReminderPlanner(registry)
    start = datetime(2024, 3, 6, quiet_end, 0) + last - HOUR  # the last reminder is moved
    evening = _evening_before(start, params)
    assert send_times(planner, start, now=evening + timedelta(minutes=30)) == []
    assert send_times(planner, start, now=evening) == []
    assert send_times(planner, start, now=evening - HOUR) == [evening]



def test_merging_is_per_appointment(calendar_core, booking, reminders, registry, params):
    """Two visits whose last reminders both move to the same evening each keep theirs."""
    first, last, _, quiet_end = _hours(params)
    start = datetime(2024, 3, 6, quiet_end, 0) + last - HOUR
    visits = [
        booking.Appointment("A0005", "P0001", "Dr Patel",
                            calendar_core.TimeSlot.from_duration(start, 20), "consultation"),
        booking.Appointment("A0006", "P0002", "Dr Osei",
                            calendar_core.TimeSlot.from_duration(start + HOUR / 2, 20),
                            "consultation"),
    ]
    evening = _evening_before(start, params)
    planned = reminders.ReminderPlanner(registry).plan_all(visits, NOW)
    assert [(r.appointment_id, r.send_at) for r in planned] == [
        ("A0005", start - first),
        ("A0006", start + HOUR / 2 - first),
        ("A0005", evening),
        ("A0006", evening),
    ]
