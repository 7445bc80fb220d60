"""CLIN-9: two reminders per appointment, never during quiet hours."""

from datetime import datetime, timedelta

from booking import Appointment
from calendar_core import TimeSlot
from reminders import DEFAULT_OFFSETS, ReminderPlanner

NOW = datetime(2024, 3, 1, 9, 0)


def _appt(start):
    return Appointment("A0005", "P0001", "Dr Patel", TimeSlot.from_duration(start, 20),
                       "consultation")


def _times(planner, start, now=NOW):
    return [r.send_at for r in planner.plan_for(_appt(start), now)]


def test_default_offsets_are_48_and_2_hours(registry):
    assert (timedelta(hours=48), timedelta(hours=2)) == DEFAULT_OFFSETS
    planner = ReminderPlanner(registry)
    assert _times(planner, datetime(2024, 3, 6, 10, 0)) == [
        datetime(2024, 3, 4, 10, 0), datetime(2024, 3, 6, 8, 0),
    ]
    reversed_offsets = ReminderPlanner(registry, offsets=(timedelta(hours=2), timedelta(hours=48)))
    assert _times(reversed_offsets, datetime(2024, 3, 6, 10, 0)) == [
        datetime(2024, 3, 4, 10, 0), datetime(2024, 3, 6, 8, 0),
    ]


def test_early_morning_reminder_moves_to_the_previous_evening(registry):
    planner = ReminderPlanner(registry)
    assert _times(planner, datetime(2024, 3, 6, 9, 0)) == [
        datetime(2024, 3, 4, 9, 0), datetime(2024, 3, 5, 20, 0),
    ]
    [reminder] = [r for r in planner.plan_for(_appt(datetime(2024, 3, 6, 9, 59)), NOW)
                  if r.send_at.day == 5]
    assert reminder.send_at == datetime(2024, 3, 5, 20, 0)
    assert reminder.address == "+447700900123"


def test_late_evening_reminder_moves_to_20_00_the_same_day(registry):
    start = datetime(2024, 3, 6, 9, 30)
    assert _times(ReminderPlanner(registry, offsets=(timedelta(hours=12),)), start) == [
        datetime(2024, 3, 5, 20, 0)
    ]
    assert _times(ReminderPlanner(registry, offsets=(timedelta(hours=12, minutes=30),)),
                  start) == [datetime(2024, 3, 5, 20, 0)]
    assert _times(ReminderPlanner(registry, offsets=(timedelta(hours=12, minutes=31),)),
                  start) == [datetime(2024, 3, 5, 20, 59)]


def test_reminders_landing_on_the_same_time_are_merged(registry):
    planner = ReminderPlanner(
        registry, offsets=(timedelta(hours=12), timedelta(hours=13, minutes=30), timedelta(hours=3))
    )
    assert _times(planner, datetime(2024, 3, 6, 9, 30)) == [datetime(2024, 3, 5, 20, 0)]


def test_moved_reminders_in_the_past_are_dropped(registry):
    planner = ReminderPlanner(registry)
    start = datetime(2024, 3, 6, 9, 0)
    assert _times(planner, start, now=datetime(2024, 3, 5, 20, 30)) == []
    assert _times(planner, start, now=datetime(2024, 3, 5, 20, 0)) == []
    assert _times(planner, start, now=datetime(2024, 3, 5, 19, 0)) == [datetime(2024, 3, 5, 20, 0)]
