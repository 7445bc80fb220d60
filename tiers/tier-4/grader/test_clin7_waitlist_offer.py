"""CLIN-7 (as amended by A1): freed slots go to the waitlist only when asked to, and only
with enough notice. Seeded: the new attribute's name (`filled_attr`) and the notice."""

from datetime import date, datetime, timedelta

NOW = datetime(2024, 3, 1, 9, 0)
CANCEL_AT = datetime(2024, 3, 1, 12, 0)


def _filled(appointment, params):
    return getattr(appointment, params["filled_attr"])


def test_offer_books_the_first_matching_candidate(booking, scheduler, params):
    freed = scheduler.book("P0001", "Dr Patel", datetime(2024, 3, 5, 9, 0), now=NOW)
    scheduler.join_waitlist("P0003", "Dr Osei", added_at=datetime(2024, 2, 1, 8, 0))
    scheduler.join_waitlist("P0003", "Dr Patel", added_at=datetime(2024, 2, 2, 8, 0),
                            latest=date(2024, 3, 4))
    scheduler.join_waitlist("P0002", "Dr Patel", added_at=datetime(2024, 2, 3, 8, 0),
                            kind="follow-up", earliest=date(2024, 3, 5))
    scheduler.join_waitlist("P0001", "Dr Patel", added_at=datetime(2024, 2, 4, 8, 0))

    cancelled = scheduler.cancel(freed.appointment_id, at=CANCEL_AT, offer_to_waitlist=True)

    assert cancelled.appointment_id == freed.appointment_id
    assert cancelled.status == booking.AppointmentStatus.CANCELLED
    [new] = scheduler.appointments_for_patient("P0002")
    assert _filled(cancelled, params) == new.appointment_id
    assert (new.practitioner, new.start, new.end, new.kind) == (
        "Dr Patel", datetime(2024, 3, 5, 9, 0), datetime(2024, 3, 5, 9, 20), "follow-up")
    assert new.booked_at == CANCEL_AT
    assert [(e.patient_id, e.practitioner) for e in scheduler.waitlist.entries()] == [
        ("P0003", "Dr Osei"), ("P0003", "Dr Patel"), ("P0001", "Dr Patel"),
    ]


def test_plain_cancel_leaves_the_waitlist_alone(booking, scheduler, params):
    first = scheduler.book("P0001", "Dr Patel", datetime(2024, 3, 5, 9, 0), now=NOW)
    second = scheduler.book("P0003", "Dr Patel", datetime(2024, 3, 6, 9, 0), now=NOW)
    scheduler.join_waitlist("P0002", "Dr Patel", added_at=NOW)

    cancelled = scheduler.cancel(first.appointment_id, at=CANCEL_AT)
    assert cancelled.status == booking.AppointmentStatus.CANCELLED
    assert _filled(cancelled, params) is None
    assert scheduler.appointments_for_patient("P0002") == []
    assert [e.patient_id for e in scheduler.waitlist.entries()] == ["P0002"]

    other = scheduler.cancel(second.appointment_id, at=CANCEL_AT, offer_to_waitlist=True)
    [new] = scheduler.appointments_for_patient("P0002")
    assert _filled(other, params) == new.appointment_id
    assert new.start == datetime(2024, 3, 6, 9, 0)
    assert len(scheduler.waitlist) == 0


def test_offer_without_candidates_frees_the_slot(scheduler, params):
    freed = scheduler.book("P0001", "Dr Osei", datetime(2024, 3, 9, 9, 0), now=NOW)
    scheduler.join_waitlist("P0002", "Dr Patel", added_at=NOW)
    scheduler.join_waitlist("P0003", "Dr Osei", added_at=NOW, latest=date(2024, 3, 8))

    cancelled = scheduler.cancel(freed.appointment_id, at=CANCEL_AT, offer_to_waitlist=True)
    assert _filled(cancelled, params) is None
    assert len(scheduler.waitlist) == 2
    starts = [s.start for s in scheduler.free_slots("Dr Osei", date(2024, 3, 9))]
    assert datetime(2024, 3, 9, 9, 0) in starts
    assert scheduler.appointments_for_patient("P0002") == []
    assert scheduler.appointments_for_patient("P0003") == []


def test_no_offer_at_short_notice(scheduler, params):
    notice = timedelta(hours=params["offer_notice_h"])
    late = scheduler.book("P0001", "Dr Patel", datetime(2024, 3, 5, 14, 0), now=NOW)
    in_time = scheduler.book("P0003", "Dr Patel", datetime(2024, 3, 6, 14, 0), now=NOW)
    scheduler.join_waitlist("P0002", "Dr Patel", added_at=NOW)

    cancelled = scheduler.cancel(late.appointment_id, at=late.start - notice + timedelta(minutes=1),
                                 offer_to_waitlist=True)
    assert _filled(cancelled, params) is None
    assert scheduler.appointments_for_patient("P0002") == []
    assert [e.patient_id for e in scheduler.waitlist.entries()] == ["P0002"]
    starts = [s.start for s in scheduler.free_slots("Dr Patel", date(2024, 3, 5))]
    assert datetime(2024, 3, 5, 14, 0) in starts

    at = in_time.start - notice
    cancelled = scheduler.cancel(in_time.appointment_id, at=at, offer_to_waitlist=True)
    [new] = scheduler.appointments_for_patient("P0002")
    assert _filled(cancelled, params) == new.appointment_id
    assert (new.start, new.booked_at) == (datetime(2024, 3, 6, 14, 0), at)
    assert len(scheduler.waitlist) == 0


def test_a_candidate_who_cannot_be_booked_is_skipped(booking, scheduler, params):
    """The first candidate's booking fails (no such patient any more): the slot goes to the
    next one, and the skipped entry stays on the waitlist."""
    freed = scheduler.book("P0001", "Dr Patel", datetime(2024, 3, 5, 9, 0), now=NOW)
    gone = booking.WaitlistEntry("P0042", "Dr Patel", "consultation", datetime(2024, 2, 1, 8, 0))
    scheduler.waitlist.add(gone)
    scheduler.join_waitlist("P0002", "Dr Patel", added_at=datetime(2024, 2, 2, 8, 0))
    scheduler.join_waitlist("P0003", "Dr Patel", added_at=datetime(2024, 2, 3, 8, 0))

    cancelled = scheduler.cancel(freed.appointment_id, at=CANCEL_AT, offer_to_waitlist=True)

    [new] = scheduler.appointments_for_patient("P0002")
    assert _filled(cancelled, params) == new.appointment_id
    assert (new.start, new.booked_at) == (datetime(2024, 3, 5, 9, 0), CANCEL_AT)
    assert scheduler.appointments_for_patient("P0003") == []
    assert [e.patient_id for e in scheduler.waitlist.entries()] == ["P0042", "P0003"]
