"""Stage II: a teammate's commit stopped normalising seat labels; the visible tests catch it for
lower-case labels. A fix at the cause normalises every spelling; upper-casing only labels that
are all lower case does not."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize(
    ("label", "canonical"),
    [("FLR-b-12", "FLR-B-12"), ("Bal-C-4", "BAL-C-4"), ("\tbal-a-1\n", "BAL-A-1")],
    ids=["lower-case-row", "capitalised-section", "tabs-and-newlines"],
)
def test_every_spelling_of_a_label_is_normalised(events, label, canonical):
    assert events.parse_seat_label(label).label == canonical


def test_canonical_labels_parse_as_they_are(events):
    ref = events.parse_seat_label("FLR-A-3")
    assert (ref.section, ref.row, ref.number) == ("FLR", "A", 3)


def test_the_teammates_canonical_label_check_is_kept(subject):
    """The same commit added the box office's canonical-label check: reverting it loses that."""
    venues = subject.module("events.venues")
    assert venues.is_canonical_label("FLR-B-12") is True
    assert venues.is_canonical_label(" flr-b-12") is False
    assert venues.is_canonical_label(12) is False
