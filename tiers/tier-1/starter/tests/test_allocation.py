import pytest

from booking import NoContiguousSeatsError, best_available
from events import SeatMap


def test_picks_the_middle_of_the_front_row(arena):
    seats = SeatMap(arena)
    assert best_available(seats, "FLR", 4) == ["FLR-A-4", "FLR-A-5", "FLR-A-6", "FLR-A-7"]
    assert best_available(seats, "FLR", 1) == ["FLR-A-5"]


def test_moves_back_when_the_front_row_has_no_block(arena):
    seats = SeatMap(arena)
    seats.hold([f"FLR-A-{n}" for n in range(3, 9)])
    assert best_available(seats, "FLR", 3) == ["FLR-B-4", "FLR-B-5", "FLR-B-6"]
    assert best_available(seats, "FLR", 2) == ["FLR-A-1", "FLR-A-2"]


def test_no_block_anywhere(arena):
    seats = SeatMap(arena)
    with pytest.raises(NoContiguousSeatsError):
        best_available(seats, "FLR", 11)
    with pytest.raises(ValueError):
        best_available(seats, "FLR", 0)
