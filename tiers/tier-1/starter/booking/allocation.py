"""Best-available seat allocation.

When a customer asks for "4 seats in the Floor" instead of picking seats on
the map, :func:`best_available` chooses a block of adjacent seats:

1. rows are tried front to back (the order of :attr:`events.Section.rows`);
   the first row with a large enough block of adjacent available seats wins;
2. within that row, the block whose middle is closest to the middle of the
   row wins; between equally central blocks the one with the lower seat
   numbers wins.
"""

from __future__ import annotations

from booking.errors import NoContiguousSeatsError
from events import SeatMap, SeatStatus


def _runs(statuses: list[bool]) -> list[tuple[int, int]]:
    """``(start, length)`` of each run of ``True`` values."""
    runs: list[tuple[int, int]] = []
    start = None
    for i, ok in enumerate([*statuses, False]):
        if ok and start is None:
            start = i
        elif not ok and start is not None:
            runs.append((start, i - start))
            start = None
    return runs


def _best_block(free: list[bool], count: int) -> int | None:
    """Index of the first seat of the most central block of ``count`` free seats."""
    middle = (len(free) - 1) / 2
    best: tuple[float, int] | None = None
    for start, length in _runs(free):
        for first in range(start, start + length - count + 1):
            distance = abs(first + (count - 1) / 2 - middle)
            if best is None or (distance, first) < best:
                best = (distance, first)
    return None if best is None else best[1]


def best_available(seatmap: SeatMap, section_code: str, count: int) -> list[str]:
    """Choose ``count`` adjacent available seats in ``section_code``.

    Nothing is held; the caller holds the returned labels.

    Raises:
        ValueError: ``count`` is less than 1.
        UnknownSectionError: no such section.
        NoContiguousSeatsError: no row has ``count`` adjacent available seats.
    """
    if count < 1:
        raise ValueError("count must be at least 1")
    section = seatmap.venue.section(section_code)
    for row in section.rows:
        statuses = seatmap.row_statuses(section_code, row)
        free = [status is SeatStatus.AVAILABLE for _, status in statuses]
        first = _best_block(free, count)
        if first is not None:
            return [label for label, _ in statuses[first : first + count]]
    raise NoContiguousSeatsError(
        f"no {count} adjacent seats available in section {section_code}"
    )
