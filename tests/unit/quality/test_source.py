"""Lines a diff adds, by a line diff, and without one when the files are too long for it."""

from __future__ import annotations

import time

from specsnap.quality.source import DIFF_MAX_PAIRS, added_lines


def test_added_lines_are_the_new_and_replaced_lines_of_the_new_file() -> None:
    assert added_lines("a\nb\nc\n", "a\nB\nc\nd\n") == [2, 4]
    assert added_lines("", "x\n") == [1]
    assert added_lines("a\n", "a\n") == []


def test_long_files_are_compared_by_the_lines_they_hold_and_quickly() -> None:
    old = "".join(f"line {n}\n" for n in range(5000))
    new = "".join(f"line {n}\n" for n in range(5000, 0, -1))  # reversed, one line new
    assert DIFF_MAX_PAIRS < 5000 * 5000
    started = time.monotonic()
    assert added_lines(old, new) == [1]
    assert time.monotonic() - started < 2
