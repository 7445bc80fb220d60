"""EVT-1: postponing an event."""

from datetime import datetime, timedelta

import pytest

from events import Event, EventStateError, EventStatus, ScheduleConflictError


def test_postpone_moves_the_event_and_keeps_the_original_start(schedule, gala):
    start = gala.starts_at
    moved = schedule.postpone("E-500", start + timedelta(days=2))
    assert moved is gala
    assert gala.status is EventStatus.POSTPONED
    assert gala.status.value == "postponed"
    assert gala.starts_at == start + timedelta(days=2)
    assert gala.original_starts_at == start
    assert schedule.get("E-501").original_starts_at is None


def test_postponing_twice_keeps_the_first_original_start(schedule, gala):
    start = gala.starts_at
    schedule.postpone("E-500", start + timedelta(days=1))
    schedule.postpone("E-500", start + timedelta(days=2))
    assert gala.starts_at == start + timedelta(days=2)
    assert gala.original_starts_at == start


def test_postpone_rejects_bad_dates_and_cancelled_events(schedule, gala):
    start = gala.starts_at
    with pytest.raises(ValueError):
        schedule.postpone("E-500", start)
    with pytest.raises(ValueError):
        schedule.postpone("E-500", start - timedelta(hours=1))
    with pytest.raises(ValueError):
        schedule.postpone("E-500", datetime(2031, 3, 1, 19, 0))
    assert gala.status is EventStatus.SCHEDULED
    schedule.cancel("E-500")
    with pytest.raises(EventStateError):
        schedule.postpone("E-500", start + timedelta(days=1))


def test_postpone_into_a_clash_changes_nothing(schedule, gala, encore):
    start = gala.starts_at
    # The encore starts 7 days later; 3 h show + 2 h changeover must fit before it.
    with pytest.raises(ScheduleConflictError):
        schedule.postpone("E-500", encore.starts_at - timedelta(hours=4, minutes=59))
    assert gala.status is EventStatus.SCHEDULED
    assert gala.starts_at == start
    assert gala.original_starts_at is None
    # Moving by less than the show's own length is fine: the event never clashes with itself.
    schedule.postpone("E-500", start + timedelta(hours=1))
    schedule.postpone("E-500", encore.starts_at - timedelta(hours=5))
    assert gala.original_starts_at == start


def test_a_postponed_event_stays_live(schedule, gala, hall, now):
    schedule.add(Event("E-502", "Chamber night", hall, gala.starts_at + timedelta(days=3)))
    schedule.postpone("E-500", gala.starts_at + timedelta(days=4))
    assert [e.event_id for e in schedule.upcoming(now)] == ["E-502", "E-500", "E-501"]
    assert gala.is_on_sale(now)
    assert schedule.cancel("E-500").status is EventStatus.CANCELLED
