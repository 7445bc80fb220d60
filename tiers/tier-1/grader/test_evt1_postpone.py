"""EVT-1: postponing an event (the method and status names, and the furthest move, are seeded)."""

from datetime import datetime, timedelta


def _status(events, params):
    return getattr(events.EventStatus, params["postponed_status"])


def _move(schedule, params):
    return getattr(schedule, params["postpone_verb"])


def test_postpone_moves_the_event_and_keeps_the_original_start(
    events, schedule, gala, same, params
):
    start = gala.starts_at
    moved = _move(schedule, params)("E-500", start + timedelta(days=2))
    assert same(moved, gala)
    status = _status(events, params)
    assert gala.status == status
    assert gala.status.name == params["postponed_status"]
    assert gala.status.value == params["postponed_value"]
    assert gala.starts_at == start + timedelta(days=2)
    assert gala.original_starts_at == start
    assert schedule.get("E-501").original_starts_at is None


def test_postponing_twice_keeps_the_first_original_start(schedule, gala, params):
    start = gala.starts_at
    move = _move(schedule, params)
    move("E-500", start + timedelta(days=1))
    move("E-500", start + timedelta(days=2))
    assert gala.starts_at == start + timedelta(days=2)
    assert gala.original_starts_at == start


def test_postpone_rejects_bad_dates_and_cancelled_events(subject, events, schedule, gala, params):
    start = gala.starts_at
    move = _move(schedule, params)
    with subject.raises("builtins.ValueError"):
        move("E-500", start)
    with subject.raises("builtins.ValueError"):
        move("E-500", start - timedelta(hours=1))
    with subject.raises("builtins.ValueError"):
        move("E-500", datetime(2031, 3, 1, 19, 0))
    assert gala.status == events.EventStatus.SCHEDULED
    schedule.cancel("E-500")
    with subject.raises("events.EventStateError"):
        move("E-500", start + timedelta(days=1))


def test_postpone_into_a_clash_changes_nothing(subject, events, schedule, gala, encore, params):
    start = gala.starts_at
    move = _move(schedule, params)
    # The encore starts 7 days later; 3 h show + 2 h changeover must fit before it.
    with subject.raises("events.ScheduleConflictError"):
        move("E-500", encore.starts_at - timedelta(hours=4, minutes=59))
    assert gala.status == events.EventStatus.SCHEDULED
    assert gala.starts_at == start
    assert gala.original_starts_at is None
    # Moving by less than the show's own length is fine: the event never clashes with itself.
    move("E-500", start + timedelta(hours=1))
    move("E-500", encore.starts_at - timedelta(hours=5))
    assert gala.original_starts_at == start


def test_a_postponed_event_stays_live(events, schedule, gala, hall, now, params):
    schedule.add(events.Event("E-502", "Chamber night", hall, gala.starts_at + timedelta(days=3)))
    _move(schedule, params)("E-500", gala.starts_at + timedelta(days=4))
    assert [e.event_id for e in schedule.upcoming(now)] == ["E-502", "E-500", "E-501"]
    assert gala.is_on_sale(now) is True
    assert schedule.cancel("E-500").status == events.EventStatus.CANCELLED


def test_an_event_moves_at_most_the_limit_past_its_original_start(
    subject, events, schedule, gala, params
):
    start = gala.starts_at
    limit = timedelta(days=params["postpone_max_days"])
    move = _move(schedule, params)
    move("E-500", start + limit - timedelta(days=20))
    # Measured from the original start, not from the current one.
    with subject.raises("builtins.ValueError"):
        move("E-500", start + limit + timedelta(minutes=1))
    assert gala.starts_at == start + limit - timedelta(days=20)
    assert gala.original_starts_at == start
    move("E-500", start + limit)
    assert gala.starts_at == start + limit
    assert gala.status == _status(events, params)


def test_a_first_move_past_the_limit_changes_nothing(subject, events, schedule, gala, params):
    start = gala.starts_at
    limit = timedelta(days=params["postpone_max_days"])
    with subject.raises("builtins.ValueError"):
        _move(schedule, params)("E-500", start + limit + timedelta(minutes=1))
    assert gala.status == events.EventStatus.SCHEDULED
    assert gala.starts_at == start
    assert gala.original_starts_at is None


def test_only_live_events_at_the_same_venue_block_the_new_slot(
    subject, events, schedule, gala, encore, params
):
    move = _move(schedule, params)
    other_venue = events.Venue(
        "V-BARN", "Old barn", "Europe/Zurich", (events.Section("FLR", "Floor", ("A",), 10),)
    )
    dance = schedule.add(events.Event("E-600", "Barn dance", other_venue, gala.starts_at))
    move("E-500", dance.starts_at + timedelta(hours=1))
    with subject.raises("events.ScheduleConflictError"):
        move("E-500", encore.starts_at)
    schedule.cancel("E-501")
    move("E-500", encore.starts_at)
    assert gala.starts_at == encore.starts_at
