"""What the grader prepares once: the cached hidden tests and the graded tree's bytecode."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from specsnap.grading import prepared


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The judge's cache, wherever this test runs (as root or not)."""
    monkeypatch.setattr(prepared, "JUDGE_CACHE", tmp_path / "judge")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    return tmp_path / "judge" if os.geteuid() == 0 else tmp_path / "xdg" / "specsnap" / "judge"


def tier_with(root: Path, tests: dict[str, str]) -> Any:
    grader = root / "grader"
    grader.mkdir(parents=True)
    for name, text in tests.items():
        (grader / name).write_text(text)
    return SimpleNamespace(grader=grader)


def test_the_same_hidden_tests_are_copied_once_and_reused(tmp_path: Path, cache: Path) -> None:
    tier = tier_with(tmp_path / "a", {"test_one.py": "def test_one():\n    assert 1\n"})
    first = prepared.judge_root(tier, tmp_path / "work1")
    again = prepared.judge_root(tier, tmp_path / "work2")
    assert first == again and first.parent == cache
    assert (first / "hidden" / "test_one.py").read_text().startswith("def test_one")
    assert (first / "pytest.ini").read_text() == prepared.GRADER_INI
    assert (first / "hidden").stat().st_mode & 0o777 == 0o700
    assert cache.stat().st_mode & 0o777 == 0o700
    assert not (tmp_path / "work1").exists()  # nothing was copied into the workspace


def test_changed_hidden_tests_get_a_copy_of_their_own(tmp_path: Path, cache: Path) -> None:
    before = prepared.judge_root(tier_with(tmp_path / "a", {"test_x.py": "X = 1\n"}), tmp_path)
    after = prepared.judge_root(tier_with(tmp_path / "b", {"test_x.py": "X = 2\n"}), tmp_path)
    assert before != after
    assert (before / "hidden" / "test_x.py").read_text() == "X = 1\n"
    assert (after / "hidden" / "test_x.py").read_text() == "X = 2\n"


def test_without_a_writable_cache_the_copy_is_made_in_the_workspace(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(prepared, "_judge_cache", lambda: None)
    work = tmp_path / "work"
    work.mkdir()
    root = prepared.judge_root(tier_with(tmp_path / "a", {"test_x.py": "X = 1\n"}), work)
    assert root == work and (work / "hidden" / "test_x.py").is_file()


def test_the_graded_tree_is_compiled_but_never_through_a_link(tmp_path: Path) -> None:
    export = tmp_path / "export"
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.py").write_text("SECRET = 'only the grader may read this'\n")
    (export / "pkg").mkdir(parents=True)
    (export / "pkg" / "mod.py").write_text("VALUE = 1\n")
    (export / "pkg" / "odd\nname.py").write_text("VALUE = 3\n")  # a name git allows
    (export / "pkg" / "alias.py").symlink_to(outside / "secret.py")
    (export / "other").mkdir()
    (export / "other" / "mod.py").write_text("VALUE = 2\n")
    (export / "other" / "__pycache__").symlink_to(outside, target_is_directory=True)
    (export / "broken").mkdir()
    (export / "broken" / "bad.py").write_text("def (:\n")

    prepared.compile_export(export, sys.executable)

    compiled = sorted(p.name for p in (export / "pkg" / "__pycache__").iterdir())
    assert [name.split(".")[0] for name in compiled] == ["mod", "odd\nname"]  # not the link's
    assert sorted(p.name for p in outside.iterdir()) == ["secret.py"]  # nothing written there
    assert not (export / "broken" / "__pycache__").exists() or not any(
        (export / "broken" / "__pycache__").iterdir()
    )
