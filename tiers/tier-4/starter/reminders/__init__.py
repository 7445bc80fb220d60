"""Reminder messages: their wording, when they go out, and the outbox."""

from .outbox import Outbox
from .planner import DEFAULT_OFFSETS, Reminder, ReminderPlanner
from .service import ReminderService
from .templates import render_cancellation, render_reminder

__all__ = [
    "DEFAULT_OFFSETS",
    "Outbox",
    "Reminder",
    "ReminderPlanner",
    "ReminderService",
    "render_cancellation",
    "render_reminder",
]
