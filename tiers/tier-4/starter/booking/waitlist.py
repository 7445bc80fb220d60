"""Patients waiting for an earlier appointment with a practitioner."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime
from itertools import count

from .errors import BookingError

_SEQUENCE = count()


@dataclass(frozen=True)
class WaitlistEntry:
    """A patient waiting for a slot with ``practitioner``.

    ``earliest`` and ``latest`` (inclusive, either may be ``None``) bound the days the
    patient can come in.
    """

    patient_id: str
    practitioner: str
    kind: str
    added_at: datetime
    earliest: date | None = None
    latest: date | None = None
    sequence: int = field(default_factory=lambda: next(_SEQUENCE), compare=False, repr=False)

    def accepts(self, day: date) -> bool:
        """True if the patient can come in on ``day``."""
        if self.earliest is not None and day < self.earliest:
            return False
        return not (self.latest is not None and day > self.latest)


class Waitlist:
    """Entries served first come, first served (by ``added_at``, then insertion order)."""

    def __init__(self) -> None:
        self._entries: list[WaitlistEntry] = []

    def add(self, entry: WaitlistEntry) -> WaitlistEntry:
        """Add an entry; a patient can wait only once per practitioner."""
        if entry.earliest and entry.latest and entry.earliest > entry.latest:
            raise BookingError("waitlist window ends before it starts")
        if self.find(entry.patient_id, entry.practitioner) is not None:
            raise BookingError(
                f"patient {entry.patient_id} is already waiting for {entry.practitioner}"
            )
        self._entries.append(entry)
        return entry

    def find(self, patient_id: str, practitioner: str) -> WaitlistEntry | None:
        """The patient's entry for that practitioner, if any."""
        for entry in self._entries:
            if entry.patient_id == patient_id and entry.practitioner == practitioner:
                return entry
        return None

    def remove(self, patient_id: str, practitioner: str) -> WaitlistEntry:
        """Take the patient off the list for that practitioner and return the entry."""
        entry = self.find(patient_id, practitioner)
        if entry is None:
            raise BookingError(f"patient {patient_id} is not waiting for {practitioner}")
        self._entries.remove(entry)
        return entry

    def entries(self, practitioner: str | None = None) -> list[WaitlistEntry]:
        """Entries in serving order, optionally only those for one practitioner."""
        ordered = sorted(self._entries, key=lambda e: (e.added_at, e.sequence))
        if practitioner is None:
            return ordered
        return [e for e in ordered if e.practitioner == practitioner]

    def candidates_for(self, practitioner: str, day: date) -> list[WaitlistEntry]:
        """Entries for ``practitioner`` that accept ``day``, in serving order."""
        return [e for e in self.entries(practitioner) if e.accepts(day)]

    def __len__(self) -> int:
        return len(self._entries)
