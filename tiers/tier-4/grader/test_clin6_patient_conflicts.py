"""CLIN-6 (as amended by A2): patients cannot double-book themselves or hoard slots.

The one-appointment-per-day rule of the original CLIN-6 was withdrawn by amendment A2, which
added the transfer gap between visits with different practitioners. Seeded: the limit of
future appointments, the name of its exception, and the transfer gap.
"""

from datetime import datetime, timedelta

NOW = datetime(2024, 3, 1, 9, 0)
MINUTE = timedelta(minutes=1)
#: 10:00 on the days the clinic is open from Monday 2024-03-04 on (Sunday the 10th is closed).
AT_TEN = [datetime(2024, 3, day, 10, 0) for day in (4, 5, 6, 7, 8, 9, 11, 12)]


def _gap(params):
    return timedelta(minutes=params["transfer_gap_min"])


def test_overlap_with_another_practitioner_is_rejected(subject, scheduler):
    first = scheduler.book("P0001", "Dr Patel", datetime(2024, 3, 4, 9, 0), now=NOW)
    with subject.raises("booking.PatientConflictError") as err:
        scheduler.book("P0001", "Dr Osei", datetime(2024, 3, 4, 9, 10), now=NOW)
    assert subject.isinstance(err.value.ref, "booking.BookingError")
    assert err.value.conflicting.appointment_id == first.appointment_id
    with subject.raises("booking.SlotUnavailableError"):
        scheduler.book("P0001", "Dr Patel", datetime(2024, 3, 4, 9, 10), now=NOW)
    scheduler.cancel(first.appointment_id, at=NOW)
    again = scheduler.book("P0001", "Dr Osei", datetime(2024, 3, 4, 9, 10), now=NOW)
    assert again.is_active is True


def test_several_non_overlapping_visits_on_one_day_are_allowed(subject, scheduler, params):
    blood = scheduler.book("P0001", "Dr Osei", datetime(2024, 3, 4, 8, 40), now=NOW,
                           kind="blood-test")
    consult = scheduler.book("P0001", "Dr Patel", blood.end + _gap(params), now=NOW)
    assert blood.is_active is True and consult.is_active is True
    listed = scheduler.appointments_for_patient("P0001")
    assert [a.appointment_id for a in listed] == [blood.appointment_id, consult.appointment_id]
    with subject.raises("booking.PatientConflictError") as err:
        scheduler.book("P0001", "Dr Osei", consult.start + timedelta(minutes=10), now=NOW)
    assert err.value.conflicting.appointment_id == consult.appointment_id


def test_visits_with_other_practitioners_keep_the_transfer_gap(subject, scheduler, params):
    gap = _gap(params)
    blood = scheduler.book("P0001", "Dr Osei", datetime(2024, 3, 4, 8, 40), now=NOW,
                           kind="blood-test")
    with subject.raises("booking.PatientConflictError") as err:
        scheduler.book("P0001", "Dr Patel", blood.end + gap - MINUTE, now=NOW)
    assert err.value.conflicting.appointment_id == blood.appointment_id
    consult = scheduler.book("P0001", "Dr Patel", blood.end + gap, now=NOW)
    follow_up = scheduler.book("P0001", "Dr Patel", consult.end, now=NOW, kind="follow-up")
    assert follow_up.start == consult.end  # the same practitioner needs no gap

    # The gap also applies before an existing visit.
    later_blood = scheduler.book("P0003", "Dr Osei", datetime(2024, 3, 5, 8, 40), now=NOW,
                                 kind="blood-test")
    with subject.raises("booking.PatientConflictError") as err:
        scheduler.book("P0003", "Dr Patel", later_blood.start - gap - timedelta(minutes=9),
                       now=NOW, kind="vaccination")
    assert err.value.conflicting.appointment_id == later_blood.appointment_id
    early = scheduler.book("P0003", "Dr Patel", later_blood.start - gap - timedelta(minutes=10),
                           now=NOW, kind="vaccination")
    assert early.end == later_blood.start - gap

    # And to rescheduling.
    osei = scheduler.book("P0002", "Dr Osei", datetime(2024, 3, 6, 10, 0), now=NOW)
    patel = scheduler.book("P0002", "Dr Patel", datetime(2024, 3, 6, 11, 0), now=NOW)
    with subject.raises("booking.PatientConflictError") as err:
        scheduler.reschedule(patel.appointment_id, osei.end + gap - MINUTE, now=NOW)
    assert err.value.conflicting.appointment_id == osei.appointment_id
    assert scheduler.get(patel.appointment_id).start == datetime(2024, 3, 6, 11, 0)
    moved = scheduler.reschedule(patel.appointment_id, osei.end + gap, now=NOW)
    assert moved.start == osei.end + gap


def test_at_most_three_future_appointments(subject, scheduler, params):
    """The limit is seeded (`future_limit`); the test's name is the original draw's."""
    limit = params["future_limit"]
    error = f"booking.{params['limit_error']}"
    for start in AT_TEN[:limit]:
        scheduler.book("P0002", "Dr Patel", start, now=NOW)
    with subject.raises(error) as err:
        scheduler.book("P0002", "Dr Patel", AT_TEN[limit], now=NOW)
    assert subject.isinstance(err.value.ref, "booking.BookingError")
    later = AT_TEN[0] + timedelta(minutes=5)  # the first visit has started: it no longer counts
    extra = scheduler.book("P0002", "Dr Patel", AT_TEN[limit], now=later)
    with subject.raises(error):
        scheduler.book("P0002", "Dr Patel", AT_TEN[limit + 1], now=later)
    scheduler.cancel(extra.appointment_id, at=later)
    last = scheduler.book("P0002", "Dr Patel", AT_TEN[limit + 1], now=later)
    assert last.is_active is True


def test_reschedule_respects_the_patient_overlap_rule(subject, scheduler, params):
    patel = scheduler.book("P0003", "Dr Patel", datetime(2024, 3, 4, 9, 0), now=NOW)
    osei = scheduler.book("P0003", "Dr Osei", datetime(2024, 3, 5, 9, 0), now=NOW)
    with subject.raises("booking.PatientConflictError") as err:
        scheduler.reschedule(osei.appointment_id, datetime(2024, 3, 4, 9, 10), now=NOW)
    assert err.value.conflicting.appointment_id == patel.appointment_id
    assert scheduler.get(osei.appointment_id).start == datetime(2024, 3, 5, 9, 0)
    moved = scheduler.reschedule(patel.appointment_id, datetime(2024, 3, 4, 9, 10), now=NOW)
    assert moved.start == datetime(2024, 3, 4, 9, 10)
    after = moved.end + _gap(params)
    assert scheduler.reschedule(osei.appointment_id, after, now=NOW).start == after


def test_completed_and_no_show_visits_never_count(subject, scheduler, params):
    """Only BOOKED appointments count, for the overlap and for the limit; the overlap is
    checked before the limit."""
    limit = params["future_limit"]
    visits = [scheduler.book("P0002", "Dr Patel", start, now=NOW) for start in AT_TEN[:limit]]
    scheduler.complete(visits[0].appointment_id, at=visits[0].start)
    scheduler.mark_no_show(visits[1].appointment_id, at=visits[1].end)
    scheduler.book("P0002", "Dr Osei", visits[0].start, now=NOW)
    scheduler.book("P0002", "Dr Osei", visits[1].start + timedelta(minutes=5), now=NOW)
    with subject.raises("booking.PatientConflictError") as err:
        scheduler.book("P0002", "Dr Osei", visits[2].start, now=NOW)
    assert err.value.conflicting.appointment_id == visits[2].appointment_id
    with subject.raises(f"booking.{params['limit_error']}"):
        scheduler.book("P0002", "Dr Osei", AT_TEN[limit], now=NOW)
