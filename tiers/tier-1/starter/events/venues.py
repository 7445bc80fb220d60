"""Venues, their sections and seat labels.

A seat is identified everywhere in the service by its *label*:
``"<SECTION>-<ROW>-<NUMBER>"``, e.g. ``"FLR-B-12"``. Rows are letters, ordered
front to back as listed in :attr:`Section.rows`; seats are numbered from 1 at
the left-hand aisle.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import NamedTuple

from events.errors import InvalidSeatLabelError, UnknownSeatError, UnknownSectionError

_LABEL_RE = re.compile(r"^([A-Z][A-Z0-9]*)-([A-Z]{1,2})-([1-9][0-9]*)$")


class SeatRef(NamedTuple):
    """The parts of a seat label."""

    section: str
    row: str
    number: int

    @property
    def label(self) -> str:
        """The canonical label, e.g. ``"FLR-B-12"``."""
        return seat_label(self.section, self.row, self.number)


def seat_label(section: str, row: str, number: int) -> str:
    """Build the canonical label of a seat."""
    return f"{section}-{row}-{number}"


def parse_seat_label(label: str) -> SeatRef:
    """Split a seat label into section, row and number.

    Surrounding whitespace is ignored and letters are upper-cased, so
    ``" flr-b-12 "`` parses like ``"FLR-B-12"``.

    Raises:
        InvalidSeatLabelError: the label is malformed.
    """
    if not isinstance(label, str):
        raise InvalidSeatLabelError(f"seat label must be a string, got {label!r}")
    match = _LABEL_RE.match(label.strip().upper())
    if match is None:
        raise InvalidSeatLabelError(f"malformed seat label {label!r}")
    section, row, number = match.groups()
    return SeatRef(section, row, int(number))


@dataclass(frozen=True)
class Section:
    """A block of seats with rows of equal length.

    Attributes:
        code: short upper-case code used in seat labels (``"FLR"``).
        name: display name (``"Floor"``).
        rows: row letters ordered front to back.
        seats_per_row: seats in each row, numbered 1..seats_per_row.
        accessible_seats: labels of wheelchair-accessible positions.
    """

    code: str
    name: str
    rows: tuple[str, ...]
    seats_per_row: int
    accessible_seats: frozenset[str] = field(default_factory=frozenset)

    def __post_init__(self) -> None:
        if not self.rows:
            raise ValueError(f"section {self.code} has no rows")
        if len(set(self.rows)) != len(self.rows):
            raise ValueError(f"section {self.code} repeats a row")
        if self.seats_per_row < 1:
            raise ValueError(f"section {self.code} needs at least one seat per row")
        for label in self.accessible_seats:
            if not self.contains(label):
                raise ValueError(f"accessible seat {label} is not in section {self.code}")

    @property
    def capacity(self) -> int:
        """Number of seats in the section."""
        return len(self.rows) * self.seats_per_row

    def row_labels(self, row: str) -> list[str]:
        """Labels of one row, left to right."""
        if row not in self.rows:
            raise UnknownSeatError(f"section {self.code} has no row {row}")
        return [seat_label(self.code, row, n) for n in range(1, self.seats_per_row + 1)]

    def seat_labels(self) -> Iterator[str]:
        """All labels of the section, front row first, left to right."""
        for row in self.rows:
            yield from self.row_labels(row)

    def contains(self, label: str) -> bool:
        """Whether ``label`` names a seat of this section."""
        try:
            ref = parse_seat_label(label)
        except InvalidSeatLabelError:
            return False
        return (
            ref.section == self.code
            and ref.row in self.rows
            and 1 <= ref.number <= self.seats_per_row
        )


@dataclass(frozen=True)
class Venue:
    """A place where events happen.

    Attributes:
        venue_id: stable identifier (``"V-ARENA"``).
        name: display name.
        timezone: IANA zone name, used only for display.
        sections: the seating sections, in display order.
    """

    venue_id: str
    name: str
    timezone: str
    sections: tuple[Section, ...]

    def __post_init__(self) -> None:
        codes = [s.code for s in self.sections]
        if len(set(codes)) != len(codes):
            raise ValueError(f"venue {self.venue_id} repeats a section code")

    @property
    def capacity(self) -> int:
        """Total number of seats."""
        return sum(s.capacity for s in self.sections)

    @property
    def accessible_capacity(self) -> int:
        """Number of wheelchair-accessible positions."""
        return sum(len(s.accessible_seats) for s in self.sections)

    def section(self, code: str) -> Section:
        """The section with ``code``.

        Raises:
            UnknownSectionError: no such section.
        """
        for section in self.sections:
            if section.code == code:
                return section
        raise UnknownSectionError(f"venue {self.venue_id} has no section {code!r}")

    def seat_labels(self) -> Iterator[str]:
        """Every seat label of the venue, section by section."""
        for section in self.sections:
            yield from section.seat_labels()

    def canonical_seat(self, label: str) -> str:
        """Validate ``label`` against the venue and return its canonical form.

        Raises:
            InvalidSeatLabelError: malformed label.
            UnknownSeatError: well-formed, but not a seat of this venue.
        """
        ref = parse_seat_label(label)
        try:
            section = self.section(ref.section)
        except UnknownSectionError:
            raise UnknownSeatError(f"no seat {label!r} at {self.venue_id}") from None
        if not section.contains(ref.label):
            raise UnknownSeatError(f"no seat {label!r} at {self.venue_id}")
        return ref.label
