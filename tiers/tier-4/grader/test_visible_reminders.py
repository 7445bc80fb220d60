"""Baseline: what the visible tests/test_reminders.py checks, judged through the bridge."""

from datetime import datetime, timedelta

NOW = datetime(2024, 3, 1, 9, 0)
DAY = (timedelta(hours=24),)


def test_reminder_goes_to_the_preferred_channel(patients, reminders, scheduler, registry):
    appt = scheduler.book("P0002", "Dr Osei", datetime(2024, 3, 5, 10, 0), now=NOW)
    [reminder] = reminders.ReminderPlanner(registry, offsets=DAY).plan_for(appt, NOW)
    assert reminder.channel == patients.ContactPreference.EMAIL
    assert reminder.address == "ben.okafor@example.org"
    assert reminder.send_at == datetime(2024, 3, 4, 10, 0)
    assert "Ben" in reminder.body and "Dr Osei" in reminder.body


def test_past_reminders_and_inactive_appointments_are_skipped(
    booking, reminders, scheduler, registry
):
    planner = reminders.ReminderPlanner(
        registry, offsets=(timedelta(hours=24), timedelta(hours=72))
    )
    appt = scheduler.book("P0001", "Dr Patel", datetime(2024, 3, 2, 10, 0), now=NOW)
    assert [r.send_at for r in planner.plan_for(appt, NOW)] == [datetime(2024, 3, 1, 10, 0)]
    scheduler.cancel(appt.appointment_id, at=NOW)
    assert appt.status == booking.AppointmentStatus.CANCELLED
    assert planner.plan_for(appt, NOW) == []


def test_outbox_never_queues_a_duplicate(subject, reminders, scheduler, registry):
    appt = scheduler.book("P0001", "Dr Patel", datetime(2024, 3, 5, 10, 0), now=NOW)
    [reminder] = reminders.ReminderPlanner(registry, offsets=DAY).plan_for(appt, NOW)
    outbox = reminders.Outbox()
    assert outbox.queue(reminder) is True
    assert outbox.queue(reminder) is False
    assert outbox.due(datetime(2024, 3, 4, 9, 59)) == []
    expected = [subject.value(reminder)]
    assert subject.value(outbox.due(datetime(2024, 3, 4, 10, 0))) == expected
    outbox.mark_sent(reminder)
    assert outbox.queue(reminder) is False
    assert subject.value(outbox.sent()) == expected


def test_service_withdraws_reminders_of_cancelled_appointments(reminders, scheduler, registry):
    service = reminders.ReminderService(
        scheduler, reminders.ReminderPlanner(registry, offsets=DAY), reminders.Outbox()
    )
    first = scheduler.book("P0001", "Dr Patel", datetime(2024, 3, 4, 10, 0), now=NOW)
    scheduler.book("P0002", "Dr Patel", datetime(2024, 3, 4, 11, 0), now=NOW)
    scheduler.book("P0003", "Dr Patel", datetime(2024, 3, 8, 11, 0), now=NOW)  # beyond horizon
    assert service.refresh(NOW, horizon=timedelta(days=4)) == 2
    assert service.refresh(NOW, horizon=timedelta(days=4)) == 0
    scheduler.cancel(first.appointment_id, at=datetime(2024, 3, 1, 12, 0))
    service.refresh(datetime(2024, 3, 1, 12, 0), horizon=timedelta(days=4))
    assert [r.patient_id for r in service.outbox.pending()] == ["P0002"]


def test_cancellation_notice_mentions_the_visit(reminders, scheduler, registry):
    appt = scheduler.book("P0003", "Dr Osei", datetime(2024, 3, 5, 10, 0), now=NOW)
    text = reminders.render_cancellation(appt, registry.get("P0003"))
    assert text.startswith("Hola Lucía")
    assert "10:00" in text
