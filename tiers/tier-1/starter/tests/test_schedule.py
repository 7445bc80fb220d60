from datetime import datetime, timedelta

import pytest

from events import Event, EventStateError, EventStatus, ScheduleConflictError


def test_changeover_gap_is_enforced(schedule, arena, show_start):
    # E-100 runs 19:30-22:30; the venue is free again from 00:30.
    too_early = Event("E-101", "Late show", arena, show_start + timedelta(hours=4, minutes=59))
    with pytest.raises(ScheduleConflictError):
        schedule.add(too_early)
    schedule.add(Event("E-102", "Late show", arena, show_start + timedelta(hours=5)))
    assert len(schedule) == 2


def test_upcoming_is_sorted_and_skips_cancelled(schedule, arena, now, show_start):
    schedule.add(Event("E-200", "Matinee", arena, show_start - timedelta(days=1)))
    schedule.add(Event("E-300", "Encore", arena, show_start + timedelta(days=1)))
    schedule.cancel("E-300")
    assert [e.event_id for e in schedule.upcoming(now)] == ["E-200", "E-100"]
    assert schedule.upcoming(show_start) == []


def test_cancelling_twice_is_refused(schedule):
    assert schedule.cancel("E-100").status is EventStatus.CANCELLED
    with pytest.raises(EventStateError):
        schedule.cancel("E-100")


def test_naive_datetimes_are_refused(arena):
    with pytest.raises(ValueError):
        Event("E-400", "Naive", arena, datetime(2030, 6, 1, 20, 0))
