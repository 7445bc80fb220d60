"""The cutoff watcher fires on the first change in content of any source file, however it
arrives (docs/protocol.md, Cutoff), with real inotify and real files."""

from __future__ import annotations

import mmap
import os
import shutil
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from specsnap.sessions.cutoff import POLL_S, CutoffWatcher, Firing


class Harness:
    def __init__(self, root: Path, start: bool = True) -> None:
        self.fired = threading.Event()
        self.firings: list[Firing] = []
        self.watcher = CutoffWatcher(root, ("**/*.py",), self._fire)
        if start:
            self.watcher.start()
        self.watcher.arm()

    def _fire(self, firing: Firing) -> int:
        self.firings.append(firing)
        self.fired.set()
        return time.monotonic_ns()

    def fires(self, timeout: float = 5.0) -> bool:
        return self.fired.wait(timeout)

    @property
    def firing(self) -> Firing:
        (firing,) = self.firings
        return firing


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "mod.py").write_text("x = 1\n")
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_mod.py").write_text("def test(): pass\n")
    (tmp_path / ".git").mkdir()
    return tmp_path


@pytest.fixture
def outside() -> Iterator[Path]:
    """A directory on the same filesystem as the repository, outside it."""
    path = Path(tempfile.mkdtemp(prefix="specsnap-outside-", dir="/tmp"))
    yield path
    shutil.rmtree(path, ignore_errors=True)


@pytest.fixture
def harness(repo: Path) -> Iterator[Harness]:
    h = Harness(repo)
    yield h
    h.watcher.finish()


def test_changed_content_fires_once_with_hashes(repo: Path, harness: Harness) -> None:
    (repo / "pkg" / "mod.py").write_text("x = 2\n")
    assert harness.fires()
    (repo / "pkg" / "mod.py").write_text("x = 3\n")
    time.sleep(0.1)
    firing = harness.firing
    assert (firing.file, firing.change, firing.detected_by) == ("pkg/mod.py", "changed", "event")
    assert firing.sha256_before != firing.sha256_after


@pytest.mark.parametrize("action", ["touch", "same_bytes", "markdown", "pyc", "open_unchanged"])
def test_non_edits_never_fire(repo: Path, harness: Harness, action: str) -> None:
    target = repo / "pkg" / "mod.py"
    if action == "touch":
        os.utime(target)
        target.touch()
    elif action == "same_bytes":
        for _ in range(50):  # truncate-then-write: the truncation is a prefix, never a change
            target.write_text("x = 1\n")
    elif action == "markdown":
        (repo / "NOTES.md").write_text("remember the sprint\n")
    elif action == "pyc":
        (repo / "pkg" / "mod.pyc").write_bytes(b"\0")
    else:
        with open(target, "r+b"):
            pass
    assert not harness.fires(3 * POLL_S)


@pytest.mark.parametrize("path", ["tests/test_mod.py", "tests/test_new.py", "tests/_impl/a.py"])
def test_test_files_count_as_source(repo: Path, harness: Harness, path: str) -> None:
    (repo / path).parent.mkdir(parents=True, exist_ok=True)
    (repo / path).write_text("from pkg.mod import x\n")
    assert harness.fires()
    assert harness.firing.file == path


def test_a_write_to_a_file_held_open_fires_before_it_is_closed(
    repo: Path, harness: Harness
) -> None:
    with open(repo / "pkg" / "mod.py", "w") as handle:
        handle.write("x = 5\n")
        handle.flush()
        assert harness.fires()
    assert harness.firing.detected_by == "event"


def test_a_slow_rewrite_with_the_same_bytes_never_fires(repo: Path, harness: Harness) -> None:
    with open(repo / "pkg" / "mod.py", "w") as handle:
        assert not harness.fires(3 * POLL_S)  # truncated, still open: a rewrite in progress
        handle.write("x = 1\n")
    assert not harness.fires(3 * POLL_S)


def test_a_truncation_fires_once_closed(repo: Path, harness: Harness) -> None:
    with open(repo / "pkg" / "mod.py", "w") as handle:
        handle.write("x")  # a prefix of "x = 1\n": code removed, none added
        handle.flush()
        assert not harness.fires(3 * POLL_S)
    assert harness.fires(10 * POLL_S)
    assert harness.firing.detected_by == "poll"


def test_a_truncation_held_open_fires_when_the_session_ends(repo: Path) -> None:
    h = Harness(repo)
    with open(repo / "pkg" / "mod.py", "w"):
        assert not h.fires(3 * POLL_S)
        h.watcher.finish()
    assert h.firing.detected_by == "session-end"


def test_a_write_through_mmap_fires(repo: Path, harness: Harness) -> None:
    fd = os.open(repo / "pkg" / "mod.py", os.O_RDWR)
    mapping = mmap.mmap(fd, 0)
    os.close(fd)  # IN_CLOSE_WRITE now, with unchanged content: nothing yet
    assert not harness.fires(2 * POLL_S)
    mapping[0:1] = b"y"  # no inotify event at all
    assert harness.fires()
    mapping.close()
    assert (harness.firing.file, harness.firing.detected_by) == ("pkg/mod.py", "poll")


def test_a_write_through_a_hard_link_outside_fires(
    repo: Path, harness: Harness, outside: Path
) -> None:
    os.link(repo / "pkg" / "mod.py", outside / "keep.py")
    assert not harness.fires(2 * POLL_S)
    with open(outside / "keep.py", "w") as handle:
        handle.write("x = 42\n")
    assert harness.fires()
    assert (harness.firing.file, harness.firing.detected_by) == ("pkg/mod.py", "poll")


def test_a_hard_link_made_into_the_sandbox_fires(
    repo: Path, harness: Harness, outside: Path
) -> None:
    (outside / "impl.py").write_text("def work(): return 1\n")
    os.link(outside / "impl.py", repo / "pkg" / "impl.py")
    assert harness.fires()
    assert (harness.firing.file, harness.firing.change) == ("pkg/impl.py", "created")


def test_a_write_through_a_symlink_to_an_outside_file_fires(repo: Path, outside: Path) -> None:
    (outside / "impl.py").write_text("def work(): return 1\n")
    (repo / "pkg" / "impl.py").symlink_to(outside / "impl.py")
    h = Harness(repo)  # the link was there when the cutoff armed
    try:
        (outside / "impl.py").write_text("def work(): return 2\n")
        assert h.fires()
        assert h.firing.file == "pkg/impl.py"
    finally:
        h.watcher.finish()


def test_a_symlink_to_a_directory_counts_as_source(
    repo: Path, harness: Harness, outside: Path
) -> None:
    (repo / "pkg" / "ext").symlink_to(outside, target_is_directory=True)
    assert harness.fires()
    assert (harness.firing.file, harness.firing.change) == ("pkg/ext", "created")


def test_a_fifo_named_like_source_fires_without_blocking(repo: Path, harness: Harness) -> None:
    os.mkfifo(repo / "pkg" / "pipe.py")
    assert harness.fires()
    assert harness.firing.file == "pkg/pipe.py"


def test_an_empty_new_file_fires_once_closed(repo: Path, harness: Harness) -> None:
    (repo / "pkg" / "new.py").touch()
    assert harness.fires()
    assert harness.firing.change == "created"


def test_rename_into_place_and_new_file_in_new_directory_fire(repo: Path, harness: Harness) -> None:
    (repo / "pkg" / "deep").mkdir()
    (repo / "pkg" / "deep" / "new.py").write_text("y = 1\n")
    assert harness.fires()
    assert harness.firing.file == "pkg/deep/new.py"
    assert harness.firing.change == "created"


def test_atomic_rename_fires(repo: Path, harness: Harness) -> None:
    tmp = repo / "pkg" / ".mod.py.tmp"
    tmp.write_text("x = 9\n")
    assert not harness.fires(0.2)  # not a watched name
    os.replace(tmp, repo / "pkg" / "mod.py")
    assert harness.fires()
    assert harness.firing.file == "pkg/mod.py"


def test_deletion_fires(repo: Path, harness: Harness) -> None:
    (repo / "pkg" / "mod.py").unlink()
    assert harness.fires()
    assert harness.firing.change == "deleted"


def test_unarmed_watcher_never_fires(repo: Path) -> None:
    fired: list[Firing] = []
    watcher = CutoffWatcher(repo, ("**/*.py",), lambda f: fired.append(f) or None)
    watcher.start()
    try:
        (repo / "pkg" / "mod.py").write_text("x = 7\n")
        time.sleep(3 * POLL_S)
        assert fired == []
    finally:
        watcher.finish()
    assert fired == []


def test_a_change_nothing_reported_fires_when_the_session_ends(repo: Path, outside: Path) -> None:
    os.link(repo / "pkg" / "mod.py", outside / "keep.py")
    h = Harness(repo, start=False)  # the watcher thread never ran, so no poll either
    (outside / "keep.py").write_text("x = 8\n")  # no event on the sandbox's directories
    h.watcher.finish()
    assert (h.firing.file, h.firing.detected_by) == ("pkg/mod.py", "session-end")


def test_written_after_counts_changed_content_only(repo: Path, harness: Harness) -> None:
    (repo / "NOTES.md").write_text("plan\n")
    (repo / "pkg" / "mod.py").write_text("x = 2\n")
    assert harness.fires()
    time.sleep(0.2)  # the harness freezes nothing; a real agent would be stopped by now
    (repo / "NOTES.md").write_text("the rest of the sprint\n")  # after the freeze
    (repo / "pkg" / "late.py").write_text("late = True\n")
    with open(repo / "tests" / "test_mod.py", "r+b"):  # a kill closes such files: no change
        pass
    harness.watcher.finish()
    assert harness.watcher.cut is not None
    assert harness.watcher.cut.written_after == ["NOTES.md", "pkg/late.py"]


def test_hard_links_at_arm_are_recorded(repo: Path, outside: Path) -> None:
    os.link(repo / "pkg" / "mod.py", outside / "mod.py")
    h = Harness(repo, start=False)
    h.watcher.finish()
    assert h.watcher.linked_at_arm == ["pkg/mod.py"]


def test_source_changes_compare_the_tree_with_the_snapshot(repo: Path) -> None:
    h = Harness(repo, start=False)
    (repo / "pkg" / "mod.py").unlink()
    (repo / "pkg" / "new.py").write_text("n = 1\n")
    (repo / "tests" / "test_mod.py").write_text("def test(): assert 0\n")
    assert h.watcher.source_changes() == {
        "pkg/mod.py": "deleted",
        "pkg/new.py": "created",
        "tests/test_mod.py": "changed",
    }
    h.watcher.finish()
