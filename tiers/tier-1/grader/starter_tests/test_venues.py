"""What tests/test_venues.py covers: capacities and seat labels."""

MALFORMED = ["", "FLR12", "FLR-B-0", "FLR-1-2", "FLR-B-12-1"]


def test_capacity_counts_all_sections(arena):
    assert arena.section("FLR").capacity == 30
    assert arena.capacity == 46
    assert arena.accessible_capacity == 2


def test_parse_seat_label_normalises_spelling(subject, events):
    ref = events.parse_seat_label(" flr-b-12 ")
    assert tuple(subject.value(ref).asdict().values()) == ("FLR", "B", 12)
    assert subject.isinstance(ref, "events.SeatRef")
    assert ref.label == "FLR-B-12"


def test_parse_seat_label_rejects_malformed_labels(subject, events):
    for label in MALFORMED:
        with subject.raises("events.InvalidSeatLabelError"):
            events.parse_seat_label(label)


def test_canonical_seat_rejects_seats_outside_the_venue(subject, arena):
    assert arena.canonical_seat("bal-b-8") == "BAL-B-8"
    for label in ("FLR-D-1", "FLR-A-11", "BOX-A-1"):
        with subject.raises("events.UnknownSeatError"):
            arena.canonical_seat(label)
