"""What a bundle's objects inflate to is bounded before anything is written out for grading."""

from __future__ import annotations

from pathlib import Path

import pytest

from specsnap.sandbox.gitrepo import create_baseline
from specsnap.submission import verification


def test_a_graded_tree_beyond_the_bound_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "small.py").write_text("x = 1\n")
    (tmp_path / "big.bin").write_bytes(b"\0" * 3000)
    create_baseline(tmp_path, "Baseline")
    monkeypatch.setattr(verification, "MAX_TREE_BYTES", 4000)
    assert verification._size_problems(tmp_path) == []
    monkeypatch.setattr(verification, "MAX_TREE_BYTES", 3000)
    assert verification._size_problems(tmp_path) == [
        "HEAD's files total 3006 bytes; at most 3000 are graded"
    ]
