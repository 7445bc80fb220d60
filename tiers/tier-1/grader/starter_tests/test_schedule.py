"""What tests/test_schedule.py covers: the changeover rule, upcoming events, cancellation."""

from datetime import datetime, timedelta


def test_changeover_gap_is_enforced(subject, events, schedule, arena, show_start):
    # E-100 runs 19:30-22:30; the venue is free again from 00:30.
    early = show_start + timedelta(hours=4, minutes=59)
    with subject.raises("events.ScheduleConflictError"):
        schedule.add(events.Event("E-101", "Late show", arena, early))
    schedule.add(events.Event("E-102", "Late show", arena, show_start + timedelta(hours=5)))
    assert len(schedule) == 2


def test_upcoming_is_sorted_and_skips_cancelled(events, schedule, arena, now, show_start):
    schedule.add(events.Event("E-200", "Matinee", arena, show_start - timedelta(days=1)))
    schedule.add(events.Event("E-300", "Encore", arena, show_start + timedelta(days=1)))
    schedule.cancel("E-300")
    assert [e.event_id for e in schedule.upcoming(now)] == ["E-200", "E-100"]
    assert schedule.upcoming(show_start) == []


def test_cancelling_twice_is_refused(subject, events, schedule):
    assert schedule.cancel("E-100").status == events.EventStatus.CANCELLED
    with subject.raises("events.EventStateError"):
        schedule.cancel("E-100")


def test_naive_datetimes_are_refused(subject, events, arena):
    with subject.raises("builtins.ValueError"):
        events.Event("E-400", "Naive", arena, datetime(2030, 6, 1, 20, 0))
