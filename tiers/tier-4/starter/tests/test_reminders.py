from datetime import datetime, timedelta

from booking import AppointmentStatus
from patients import ContactPreference
from reminders import Outbox, ReminderPlanner, ReminderService, render_cancellation

NOW = datetime(2024, 3, 1, 9, 0)
DAY = (timedelta(hours=24),)


def test_reminder_goes_to_the_preferred_channel(scheduler, registry):
    appt = scheduler.book("P0002", "Dr Osei", datetime(2024, 3, 5, 10, 0), now=NOW)
    [reminder] = ReminderPlanner(registry, offsets=DAY).plan_for(appt, NOW)
    assert reminder.channel is ContactPreference.EMAIL
    assert reminder.address == "ben.okafor@example.org"
    assert reminder.send_at == datetime(2024, 3, 4, 10, 0)
    assert "Ben" in reminder.body and "Dr Osei" in reminder.body


def test_past_reminders_and_inactive_appointments_are_skipped(scheduler, registry):
    planner = ReminderPlanner(registry, offsets=(timedelta(hours=24), timedelta(hours=72)))
    appt = scheduler.book("P0001", "Dr Patel", datetime(2024, 3, 2, 10, 0), now=NOW)
    assert [r.send_at for r in planner.plan_for(appt, NOW)] == [datetime(2024, 3, 1, 10, 0)]
    scheduler.cancel(appt.appointment_id, at=NOW)
    assert appt.status is AppointmentStatus.CANCELLED
    assert planner.plan_for(appt, NOW) == []


def test_outbox_never_queues_a_duplicate(scheduler, registry):
    appt = scheduler.book("P0001", "Dr Patel", datetime(2024, 3, 5, 10, 0), now=NOW)
    [reminder] = ReminderPlanner(registry, offsets=DAY).plan_for(appt, NOW)
    outbox = Outbox()
    assert outbox.queue(reminder)
    assert not outbox.queue(reminder)
    assert outbox.due(datetime(2024, 3, 4, 9, 59)) == []
    assert outbox.due(datetime(2024, 3, 4, 10, 0)) == [reminder]
    outbox.mark_sent(reminder)
    assert not outbox.queue(reminder)
    assert outbox.sent() == [reminder]


def test_service_withdraws_reminders_of_cancelled_appointments(scheduler, registry):
    service = ReminderService(scheduler, ReminderPlanner(registry, offsets=DAY), Outbox())
    first = scheduler.book("P0001", "Dr Patel", datetime(2024, 3, 4, 10, 0), now=NOW)
    scheduler.book("P0002", "Dr Patel", datetime(2024, 3, 4, 11, 0), now=NOW)
    scheduler.book("P0003", "Dr Patel", datetime(2024, 3, 8, 11, 0), now=NOW)  # beyond horizon
    assert service.refresh(NOW, horizon=timedelta(days=4)) == 2
    assert service.refresh(NOW, horizon=timedelta(days=4)) == 0
    scheduler.cancel(first.appointment_id, at=datetime(2024, 3, 1, 12, 0))
    service.refresh(datetime(2024, 3, 1, 12, 0), horizon=timedelta(days=4))
    assert [r.patient_id for r in service.outbox.pending()] == ["P0002"]


def test_cancellation_notice_mentions_the_visit(scheduler, registry):
    appt = scheduler.book("P0003", "Dr Osei", datetime(2024, 3, 5, 10, 0), now=NOW)
    text = render_cancellation(appt, registry.get("P0003"))
    assert text.startswith("Hola Lucía")
    assert "10:00" in text
