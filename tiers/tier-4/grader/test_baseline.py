"""Hidden baseline: behaviour of the starter that every requirement must keep."""

from datetime import date, datetime, time, timedelta

import pytest

NOW = datetime(2024, 3, 1, 9, 0)
TODAY = date(2024, 3, 1)


def test_standard_hours_cover_only_single_ranges(calendar_core):
    hours = calendar_core.WorkingHours.standard()
    slot = calendar_core.TimeSlot.from_duration
    assert hours.ranges_for_weekday(5) == ((time(9, 0), time(12, 0)),)
    assert hours.ranges_for_weekday(6) == ()
    assert hours.covers(slot(datetime(2024, 3, 4, 13, 0), 240)) is True
    assert hours.covers(slot(datetime(2024, 3, 4, 11, 0), 180)) is False


def test_holiday_between_and_remove(subject, calendar_core):
    holidays = calendar_core.HolidayCalendar()
    holidays.add(date(2024, 5, 27), "Spring bank holiday")
    holidays.add(date(2024, 5, 6), "Early May bank holiday")
    assert holidays.between(date(2024, 5, 1), date(2024, 5, 31)) == [
        (date(2024, 5, 6), "Early May bank holiday"),
        (date(2024, 5, 27), "Spring bank holiday"),
    ]
    holidays.remove(date(2024, 5, 6))
    assert holidays.is_holiday(date(2024, 5, 6)) is False
    with subject.raises("calendar_core.CalendarError"):
        holidays.remove(date(2024, 5, 6))


def test_next_open_day_skips_sunday_and_holidays(calendar_core):
    holidays = calendar_core.HolidayCalendar({date(2024, 4, 1): "Easter Monday"})
    calendar = calendar_core.ClinicCalendar(holidays=holidays)
    assert calendar.next_open_day(date(2024, 3, 30)) == date(2024, 4, 2)


def test_registry_rejects_unsupported_language_and_bad_names(subject, registry):
    with subject.raises("patients.PatientValidationError"):
        registry.register("Zoé", "Martin", date(1980, 1, 1), phone="+33612345678",
                          language="fr", today=TODAY)
    with subject.raises("patients.PatientValidationError"):
        registry.register("R2D2", "Droid", date(1980, 1, 1), phone="+447700900999", today=TODAY)
    assert len(registry) == 3
    assert registry.exists("P0003") is True
    assert registry.exists("P0004") is False


def test_update_contact_keeps_other_fields(patients, registry):
    updated = registry.update_contact("P0003", phone="+34 699 000 111")
    assert updated.phone == "+34699000111"
    assert updated.language == "es"
    assert updated.contact_preference == patients.ContactPreference.SMS
    assert patients.contact_address(registry.get("P0003")) == (
        patients.ContactPreference.SMS,
        "+34699000111",
    )


def test_reschedule_checks_the_practitioner_diary(subject, scheduler):
    scheduler.book("P0001", "Dr Patel", datetime(2024, 3, 4, 9, 0), now=NOW)
    other = scheduler.book("P0002", "Dr Patel", datetime(2024, 3, 5, 9, 0), now=NOW)
    with subject.raises("booking.SlotUnavailableError"):
        scheduler.reschedule(other.appointment_id, datetime(2024, 3, 4, 9, 10), now=NOW)
    with subject.raises("booking.BookingError"):
        scheduler.reschedule(other.appointment_id, datetime(2024, 2, 29, 9, 0), now=NOW)
    assert scheduler.get(other.appointment_id).start == datetime(2024, 3, 5, 9, 0)


def test_day_listing_and_utilisation(scheduler):
    scheduler.book("P0001", "Dr Patel", datetime(2024, 3, 9, 9, 0), now=NOW)
    scheduler.book("P0002", "Dr Patel", datetime(2024, 3, 9, 10, 0), now=NOW,
                   kind="long-consultation")
    scheduler.book("P0003", "Dr Osei", datetime(2024, 3, 9, 11, 0), now=NOW)
    assert [a.patient_id for a in scheduler.appointments_on(date(2024, 3, 9))] == [
        "P0001", "P0002", "P0003",
    ]
    assert scheduler.utilisation("Dr Patel", date(2024, 3, 9)) == pytest.approx(60 / 180)
    between = scheduler.appointments_between(datetime(2024, 3, 9, 9, 30),
                                             datetime(2024, 3, 9, 11, 0))
    assert [a.patient_id for a in between] == ["P0002"]


def test_waitlist_window_and_removal(subject, scheduler):
    with subject.raises("booking.BookingError"):
        scheduler.join_waitlist("P0001", "Dr Osei", added_at=NOW,
                                earliest=date(2024, 3, 8), latest=date(2024, 3, 4))
    entry = scheduler.join_waitlist("P0001", "Dr Osei", added_at=NOW, kind="vaccination",
                                    earliest=date(2024, 3, 4))
    assert entry.accepts(date(2024, 3, 3)) is False
    assert entry.accepts(date(2024, 12, 31)) is True
    removed = scheduler.waitlist.remove("P0001", "Dr Osei")
    # The fields an entry compares by (its insertion sequence is not one of them).
    fields = ("patient_id", "practitioner", "kind", "added_at", "earliest", "latest")
    assert [getattr(removed, f) for f in fields] == [getattr(entry, f) for f in fields]
    assert len(scheduler.waitlist) == 0


def test_outbox_discards_pending_reminders(reminders, scheduler, registry):
    planner = reminders.ReminderPlanner(
        registry, offsets=(timedelta(hours=24), timedelta(hours=26))
    )
    first = scheduler.book("P0001", "Dr Patel", datetime(2024, 3, 5, 10, 0), now=NOW)
    second = scheduler.book("P0002", "Dr Patel", datetime(2024, 3, 5, 11, 0), now=NOW)
    planned = planner.plan_all([second, first], NOW)
    assert [(r.appointment_id, r.send_at.hour) for r in planned] == [
        ("A0001", 8), ("A0002", 9), ("A0001", 10), ("A0002", 11),
    ]
    outbox = reminders.Outbox()
    for reminder in planned:
        outbox.queue(reminder)
    assert outbox.discard_for("A0001") == 2
    assert [r.appointment_id for r in outbox.pending()] == ["A0002", "A0002"]


def test_cancellation_notice_wording(booking, reminders, scheduler, registry):
    appt = scheduler.book("P0001", "Dr Patel", datetime(2024, 3, 5, 14, 30), now=NOW)
    scheduler.cancel(appt.appointment_id, at=datetime(2024, 3, 1, 10, 0))
    assert appt.status == booking.AppointmentStatus.CANCELLED
    assert reminders.render_cancellation(appt, registry.get("P0001")) == (
        "Hello Ana, your consultation appointment on 2024-03-05 at 14:30 has been cancelled."
    )


def test_packages_export_their_public_names(subject):
    builtins = subject.module("builtins")
    for module, names in [
        ("calendar_core", ["TimeSlot", "WorkingHours", "HolidayCalendar", "ClinicCalendar"]),
        ("patients", ["PatientRegistry", "normalize_phone", "contact_address"]),
        ("booking", ["Scheduler", "CancellationPolicy", "Waitlist", "BookingError"]),
        ("reminders", ["ReminderPlanner", "Outbox", "render_reminder", "DEFAULT_OFFSETS"]),
    ]:
        remote = subject.module(module)
        for name in names:
            assert builtins.hasattr(remote, name) is True, f"{module}.{name}"
