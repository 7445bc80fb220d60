"""Stage II: a teammate's commit made slots that only touch overlap; the visible tests catch it
for a slot followed by the next. A fix at the cause makes touching slots free of each other in
both directions; excusing only a slot that ends where the other starts does not."""

from __future__ import annotations

from datetime import datetime


def test_a_slot_does_not_overlap_the_one_before_it(calendar_core):
    earlier = calendar_core.TimeSlot(datetime(2024, 3, 4, 9, 0), datetime(2024, 3, 4, 9, 20))
    later = calendar_core.TimeSlot(datetime(2024, 3, 4, 9, 20), datetime(2024, 3, 4, 9, 40))
    assert later.overlaps(earlier) is False
    assert earlier.overlaps(later) is False


def test_a_busy_slot_right_before_the_window_leaves_it_free(calendar_core):
    window = calendar_core.TimeSlot(datetime(2024, 3, 4, 10, 0), datetime(2024, 3, 4, 11, 0))
    busy = calendar_core.TimeSlot(datetime(2024, 3, 4, 9, 30), datetime(2024, 3, 4, 10, 0))
    free = calendar_core.subtract(window, [busy])
    assert len(free) == 1
    assert (free[0].start, free[0].end) == (datetime(2024, 3, 4, 10, 0), datetime(2024, 3, 4, 11, 0))


def test_the_teammates_gap_between_slots_is_kept(subject, calendar_core):
    """The same commit added the minutes between two slots: reverting it loses that."""
    slots = subject.module("calendar_core.slots")
    nine = calendar_core.TimeSlot(datetime(2024, 3, 4, 9, 0), datetime(2024, 3, 4, 9, 20))
    ten = calendar_core.TimeSlot(datetime(2024, 3, 4, 9, 45), datetime(2024, 3, 4, 10, 0))
    assert slots.gap_between(ten, nine) == 25
    assert slots.gap_between(nine, nine) == 0
