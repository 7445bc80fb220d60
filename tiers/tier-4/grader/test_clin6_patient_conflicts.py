"""CLIN-6 (as amended by A2): patients cannot double-book themselves or hoard slots.

The one-appointment-per-day rule of the original CLIN-6 was withdrawn by amendment A2.
"""

from datetime import datetime

import pytest

import booking

NOW = datetime(2024, 3, 1, 9, 0)


def test_overlap_with_another_practitioner_is_rejected(scheduler):
    first = scheduler.book("P0001", "Dr Patel", datetime(2024, 3, 4, 9, 0), now=NOW)
    with pytest.raises(booking.PatientConflictError) as err:
        scheduler.book("P0001", "Dr Osei", datetime(2024, 3, 4, 9, 10), now=NOW)
    assert isinstance(err.value, booking.BookingError)
    assert err.value.conflicting == first
    with pytest.raises(booking.SlotUnavailableError):
        scheduler.book("P0001", "Dr Patel", datetime(2024, 3, 4, 9, 10), now=NOW)
    scheduler.cancel(first.appointment_id, at=NOW)
    again = scheduler.book("P0001", "Dr Osei", datetime(2024, 3, 4, 9, 10), now=NOW)
    assert again.is_active


def test_several_non_overlapping_visits_on_one_day_are_allowed(scheduler):
    blood = scheduler.book("P0001", "Dr Osei", datetime(2024, 3, 4, 8, 40), now=NOW,
                           kind="blood-test")
    consult = scheduler.book("P0001", "Dr Patel", datetime(2024, 3, 4, 9, 0), now=NOW)
    assert blood.is_active and consult.is_active
    assert [a.appointment_id for a in scheduler.appointments_for_patient("P0001")] == [
        blood.appointment_id, consult.appointment_id,
    ]
    with pytest.raises(booking.PatientConflictError) as err:
        scheduler.book("P0001", "Dr Osei", datetime(2024, 3, 4, 9, 10), now=NOW)
    assert err.value.conflicting == consult


def test_at_most_three_future_appointments(scheduler):
    for day in (4, 5, 6):
        scheduler.book("P0002", "Dr Patel", datetime(2024, 3, day, 10, 0), now=NOW)
    with pytest.raises(booking.BookingLimitError) as err:
        scheduler.book("P0002", "Dr Patel", datetime(2024, 3, 7, 10, 0), now=NOW)
    assert isinstance(err.value, booking.BookingError)
    later = datetime(2024, 3, 4, 10, 5)  # the first visit has started: it no longer counts
    fourth = scheduler.book("P0002", "Dr Patel", datetime(2024, 3, 7, 10, 0), now=later)
    with pytest.raises(booking.BookingLimitError):
        scheduler.book("P0002", "Dr Patel", datetime(2024, 3, 8, 10, 0), now=later)
    scheduler.cancel(fourth.appointment_id, at=later)
    scheduler.book("P0002", "Dr Patel", datetime(2024, 3, 8, 10, 0), now=later)


def test_reschedule_respects_the_patient_overlap_rule(scheduler):
    patel = scheduler.book("P0003", "Dr Patel", datetime(2024, 3, 4, 9, 0), now=NOW)
    osei = scheduler.book("P0003", "Dr Osei", datetime(2024, 3, 5, 9, 0), now=NOW)
    with pytest.raises(booking.PatientConflictError) as err:
        scheduler.reschedule(osei.appointment_id, datetime(2024, 3, 4, 9, 10), now=NOW)
    assert err.value.conflicting == patel
    assert scheduler.get(osei.appointment_id).start == datetime(2024, 3, 5, 9, 0)
    moved = scheduler.reschedule(patel.appointment_id, datetime(2024, 3, 4, 9, 10), now=NOW)
    assert moved.start == datetime(2024, 3, 4, 9, 10)
    moved = scheduler.reschedule(osei.appointment_id, datetime(2024, 3, 4, 9, 30), now=NOW)
    assert moved.start == datetime(2024, 3, 4, 9, 30)
