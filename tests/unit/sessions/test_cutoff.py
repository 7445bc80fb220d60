"""The cutoff watcher fires on completed source edits only (SPEC §1.3), with real inotify."""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

import pytest

from specsnap.sessions.cutoff import CutoffWatcher, Firing


class Harness:
    def __init__(self, root: Path) -> None:
        self.fired = threading.Event()
        self.firings: list[Firing] = []
        self.watcher = CutoffWatcher(root, ("**/*.py",), ("tests/**", "**/test_*.py"), self._fire)
        self.watcher.start()
        self.watcher.arm()

    def _fire(self, firing: Firing) -> int:
        self.firings.append(firing)
        self.fired.set()
        return time.monotonic_ns()

    def fires(self, timeout: float = 5.0) -> bool:
        return self.fired.wait(timeout)


@pytest.fixture
def repo(tmp_path: Path):  # type: ignore[no-untyped-def]
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "mod.py").write_text("x = 1\n")
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_mod.py").write_text("def test(): pass\n")
    (tmp_path / ".git").mkdir()
    return tmp_path


@pytest.fixture
def harness(repo: Path):  # type: ignore[no-untyped-def]
    h = Harness(repo)
    yield h
    h.watcher.stop()


def test_changed_content_fires_once_with_hashes(repo: Path, harness: Harness) -> None:
    (repo / "pkg" / "mod.py").write_text("x = 2\n")
    assert harness.fires()
    (repo / "pkg" / "mod.py").write_text("x = 3\n")
    time.sleep(0.1)
    (firing,) = harness.firings
    assert (firing.file, firing.change) == ("pkg/mod.py", "changed")
    assert firing.sha256_before != firing.sha256_after


@pytest.mark.parametrize("action", ["touch", "same_bytes", "markdown", "test_file", "pyc"])
def test_non_edits_never_fire(repo: Path, harness: Harness, action: str) -> None:
    target = repo / "pkg" / "mod.py"
    if action == "touch":
        os.utime(target)
        target.touch()
    elif action == "same_bytes":
        target.write_text("x = 1\n")
    elif action == "markdown":
        (repo / "NOTES.md").write_text("remember the sprint\n")
    elif action == "test_file":
        (repo / "tests" / "test_mod.py").write_text("def test(): assert 1\n")
    else:
        (repo / "pkg" / "mod.pyc").write_bytes(b"\0")
    assert not harness.fires(0.3)


def test_a_half_write_fires_only_when_closed(repo: Path, harness: Harness) -> None:
    handle = open(repo / "pkg" / "mod.py", "w")  # noqa: SIM115
    handle.write("x = ")
    handle.flush()
    assert not harness.fires(0.3)
    handle.write("5\n")
    handle.close()
    assert harness.fires()


def test_rename_into_place_and_new_file_in_new_directory_fire(repo: Path, harness: Harness) -> None:
    (repo / "pkg" / "deep").mkdir()
    (repo / "pkg" / "deep" / "new.py").write_text("y = 1\n")
    assert harness.fires()
    assert harness.firings[0].file == "pkg/deep/new.py"
    assert harness.firings[0].change == "created"


def test_atomic_rename_fires(repo: Path, harness: Harness) -> None:
    tmp = repo / "pkg" / ".mod.py.tmp"
    tmp.write_text("x = 9\n")
    assert not harness.fires(0.2)  # not a watched name
    os.replace(tmp, repo / "pkg" / "mod.py")
    assert harness.fires()
    assert harness.firings[0].file == "pkg/mod.py"


def test_deletion_fires(repo: Path, harness: Harness) -> None:
    (repo / "pkg" / "mod.py").unlink()
    assert harness.fires()
    assert harness.firings[0].change == "deleted"


def test_unarmed_watcher_never_fires(repo: Path) -> None:
    fired: list[Firing] = []
    watcher = CutoffWatcher(repo, ("**/*.py",), (), lambda f: fired.append(f) or None)
    watcher.start()
    try:
        (repo / "pkg" / "mod.py").write_text("x = 7\n")
        time.sleep(0.3)
        assert fired == []
    finally:
        watcher.stop()
