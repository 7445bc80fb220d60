"""Events and the schedule of a set of venues.

All datetimes are timezone-aware; naive datetimes are rejected because the
service sells tickets across time zones.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import Enum

from events.errors import (
    DuplicateEventError,
    EventStateError,
    ScheduleConflictError,
    UnknownEventError,
)
from events.venues import Venue

#: Minimum gap between the end of one event and the start of the next at a venue.
CHANGEOVER = timedelta(hours=2)


def require_aware(moment: datetime, what: str) -> None:
    """Raise ``ValueError`` unless ``moment`` is timezone-aware."""
    if moment.tzinfo is None or moment.utcoffset() is None:
        raise ValueError(f"{what} must be timezone-aware")


class EventStatus(str, Enum):
    """Lifecycle status of an event."""

    SCHEDULED = "scheduled"
    CANCELLED = "cancelled"


@dataclass
class Event:
    """One performance at one venue.

    Attributes:
        event_id: stable identifier (``"E-1001"``).
        name: display name.
        venue: where it happens.
        starts_at: when doors close and the show starts (aware).
        duration: planned length, used for schedule conflicts.
        on_sale_from: when ticket sales open; ``None`` = already on sale.
        status: lifecycle status.
    """

    event_id: str
    name: str
    venue: Venue
    starts_at: datetime
    duration: timedelta = timedelta(hours=3)
    on_sale_from: datetime | None = None
    status: EventStatus = EventStatus.SCHEDULED

    def __post_init__(self) -> None:
        require_aware(self.starts_at, "starts_at")
        if self.on_sale_from is not None:
            require_aware(self.on_sale_from, "on_sale_from")
        if self.duration <= timedelta(0):
            raise ValueError("duration must be positive")

    @property
    def ends_at(self) -> datetime:
        """Planned end of the event."""
        return self.starts_at + self.duration

    def is_on_sale(self, now: datetime) -> bool:
        """Whether tickets can be bought at ``now``."""
        require_aware(now, "now")
        if self.status is EventStatus.CANCELLED:
            return False
        if self.on_sale_from is not None and now < self.on_sale_from:
            return False
        return now < self.starts_at

    def overlaps(self, other: Event) -> bool:
        """Whether both events need the same venue at the same time.

        Each event blocks its venue from its start until :data:`CHANGEOVER`
        after its end.
        """
        if self.venue.venue_id != other.venue.venue_id:
            return False
        return (
            self.starts_at < other.ends_at + CHANGEOVER
            and other.starts_at < self.ends_at + CHANGEOVER
        )


class Schedule:
    """All events the service sells, across venues."""

    def __init__(self) -> None:
        self._events: dict[str, Event] = {}

    def __len__(self) -> int:
        return len(self._events)

    def __contains__(self, event_id: object) -> bool:
        return event_id in self._events

    def add(self, event: Event) -> Event:
        """Schedule ``event``.

        Raises:
            DuplicateEventError: the id is taken.
            ScheduleConflictError: a live event at the same venue overlaps it.
        """
        if event.event_id in self._events:
            raise DuplicateEventError(f"event {event.event_id} is already scheduled")
        self._check_conflicts(event, event.starts_at)
        self._events[event.event_id] = event
        return event

    def get(self, event_id: str) -> Event:
        """The event with ``event_id``.

        Raises:
            UnknownEventError: no such event.
        """
        try:
            return self._events[event_id]
        except KeyError:
            raise UnknownEventError(f"no event {event_id!r}") from None

    def cancel(self, event_id: str) -> Event:
        """Cancel an event (organiser decision).

        Raises:
            EventStateError: the event is already cancelled.
        """
        event = self.get(event_id)
        if event.status is EventStatus.CANCELLED:
            raise EventStateError(f"event {event_id} is already cancelled")
        event.status = EventStatus.CANCELLED
        return event

    def upcoming(self, now: datetime, venue_id: str | None = None) -> list[Event]:
        """Live events starting after ``now``, soonest first (ties by id)."""
        require_aware(now, "now")
        events = [
            e
            for e in self._events.values()
            if e.status is not EventStatus.CANCELLED
            and e.starts_at > now
            and (venue_id is None or e.venue.venue_id == venue_id)
        ]
        return sorted(events, key=lambda e: (e.starts_at, e.event_id))

    def _check_conflicts(self, event: Event, starts_at: datetime) -> None:
        probe = Event(
            event_id=event.event_id,
            name=event.name,
            venue=event.venue,
            starts_at=starts_at,
            duration=event.duration,
        )
        for other in self._events.values():
            if other.event_id == event.event_id or other.status is EventStatus.CANCELLED:
                continue
            if probe.overlaps(other):
                raise ScheduleConflictError(
                    f"event {event.event_id} overlaps {other.event_id} at {event.venue.venue_id}"
                )
