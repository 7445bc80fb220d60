"""What tests/test_allocation.py covers: best-available blocks of adjacent seats."""


def test_picks_the_middle_of_the_front_row(booking, events, arena):
    seats = events.SeatMap(arena)
    assert booking.best_available(seats, "FLR", 4) == ["FLR-A-4", "FLR-A-5", "FLR-A-6", "FLR-A-7"]
    assert booking.best_available(seats, "FLR", 1) == ["FLR-A-5"]


def test_moves_back_when_the_front_row_has_no_block(booking, events, arena):
    seats = events.SeatMap(arena)
    seats.hold([f"FLR-A-{n}" for n in range(3, 9)])
    assert booking.best_available(seats, "FLR", 3) == ["FLR-B-4", "FLR-B-5", "FLR-B-6"]
    assert booking.best_available(seats, "FLR", 2) == ["FLR-A-1", "FLR-A-2"]


def test_no_block_anywhere(subject, booking, events, arena):
    seats = events.SeatMap(arena)
    with subject.raises("booking.NoContiguousSeatsError"):
        booking.best_available(seats, "FLR", 11)
    with subject.raises("builtins.ValueError"):
        booking.best_available(seats, "FLR", 0)
