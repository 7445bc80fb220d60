"""Venues, seat maps and the event schedule.

This package is the foundation of the ticketing service: it knows nothing about
money or customers, only about places, seats and dates.
"""

from events.errors import (
    DuplicateEventError, EventsError, EventStateError, InvalidSeatLabelError,
    ScheduleConflictError, SeatStateError, UnknownEventError, UnknownSeatError,
    UnknownSectionError,
)
from events.schedule import Event, EventStatus, Schedule
from events.seatmap import SeatMap, SeatStatus
from events.venues import Section, SeatRef, Venue, parse_seat_label, seat_label

__all__ = [
    "DuplicateEventError", "Event", "EventStateError", "EventStatus", "EventsError",
    "InvalidSeatLabelError", "Schedule", "ScheduleConflictError", "SeatMap", "SeatRef",
    "SeatStateError", "SeatStatus", "Section", "UnknownEventError", "UnknownSeatError",
    "UnknownSectionError", "Venue", "parse_seat_label", "seat_label",
]
