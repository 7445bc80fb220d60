"""The cutoff watcher (SPEC §1.3): inotify on the sandbox, fired by the first completed source edit.

A *source edit* is a completed write — close after writing, a rename into place, or a deletion —
that leaves a watched `.py` file with content different from the snapshot taken when the cutoff
armed. A `touch`, a rewrite with the same bytes, or a write still open never fires.

The watcher thread blocks in poll() on the inotify descriptor, so an event wakes it at once; the
freeze callback runs on that thread before anything else is read. It also watches `.git` for
reference updates, so a commit is seen even when the agent disabled the hooks.
"""

from __future__ import annotations

import hashlib
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from inotify_simple import INotify
from inotify_simple import flags as F

from specsnap.globs import matches

TREE_MASK = (
    F.CLOSE_WRITE | F.MOVED_TO | F.MOVED_FROM | F.DELETE | F.CREATE | F.DELETE_SELF | F.MOVE_SELF
)
GIT_MASK = F.CLOSE_WRITE | F.MOVED_TO | F.CREATE | F.DELETE


@dataclass
class Firing:
    """What fired the cutoff, and what else was written around it."""

    file: str
    change: str  # created, changed or deleted
    sha256_before: str | None
    sha256_after: str | None
    detected_ns: int  # time.monotonic_ns() when the event was read
    mtime_ns: int | None  # the file's modification time (wall clock), if it still exists
    frozen_ns: int = 0  # time.monotonic_ns() once the freeze callback returned
    frozen_wall_ns: int = 0
    written_between: list[str] = field(default_factory=list)  # other paths in the same wake-up
    written_after: list[str] = field(default_factory=list)  # events still queued after the freeze

    @property
    def latency_ms(self) -> float:
        """Detection to freeze, in milliseconds."""
        return round((self.frozen_ns - self.detected_ns) / 1e6, 3)


def sha256_file(path: Path) -> str | None:
    try:
        with open(path, "rb") as handle:
            return hashlib.sha256(handle.read()).hexdigest()
    except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
        return None
    except PermissionError:
        return "unreadable"


class CutoffWatcher:
    """Watches `root`; once armed, calls `on_fire` on the first source edit (exactly once).

    `on_fire` returns the time.monotonic_ns() at which the agent was frozen, when it froze it.
    """

    def __init__(
        self,
        root: Path,
        watch: tuple[str, ...],
        ignore: tuple[str, ...],
        on_fire: Callable[[Firing], int | None],
        on_ref_change: Callable[[], None] | None = None,
    ) -> None:
        self.root = root
        self.watch = watch
        self.ignore = ignore
        self.on_fire = on_fire
        self.on_ref_change = on_ref_change
        self.firing: Firing | None = None
        self.armed_at_ns: int | None = None
        self._snapshot: dict[str, str] = {}
        self._lock = threading.Lock()
        self._inotify = INotify()
        self._dirs: dict[int, str] = {}  # watch descriptor -> repository-relative directory
        self._git_wds: dict[int, str] = {}  # watch descriptor -> ".git" or ".git/refs/heads"
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, name="specsnap-cutoff", daemon=True)
        self._add_tree("")
        self._add_git_watches()

    # -- lifecycle --------------------------------------------------------------------------

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)
        self._inotify.close()

    @property
    def armed(self) -> bool:
        return self.armed_at_ns is not None

    def arm(self) -> None:
        """Snapshot every watched file and start firing on edits (idempotent)."""
        with self._lock:
            if self.armed_at_ns is not None:
                return
            self._snapshot = self._scan()
            self.armed_at_ns = time.monotonic_ns()

    def is_watched(self, rel: str) -> bool:
        return matches(rel, self.watch) and not matches(rel, self.ignore)

    # -- internals --------------------------------------------------------------------------

    def _scan(self) -> dict[str, str]:
        found = {}
        for dirpath, dirnames, filenames in os.walk(self.root):
            dirnames[:] = [d for d in dirnames if d != ".git" or dirpath != str(self.root)]
            for name in filenames:
                rel = os.path.relpath(os.path.join(dirpath, name), self.root).replace(os.sep, "/")
                if self.is_watched(rel):
                    digest = sha256_file(self.root / rel)
                    if digest is not None:
                        found[rel] = digest
        return found

    def _add_tree(self, rel_dir: str) -> list[str]:
        """Watch `rel_dir` and every directory below it; returns the files found in them."""
        files = []
        for dirpath, dirnames, filenames in os.walk(self.root / rel_dir):
            rel = os.path.relpath(dirpath, self.root).replace(os.sep, "/")
            rel = "" if rel == "." else rel
            if rel == ".git" or rel.startswith(".git/"):
                dirnames[:] = []
                continue
            try:
                wd = self._inotify.add_watch(dirpath, TREE_MASK)
            except OSError:
                continue
            self._dirs[wd] = rel
            files += [f"{rel}/{name}" if rel else name for name in filenames]
        return files

    def _add_git_watches(self) -> None:
        for rel in (".git", ".git/refs/heads"):
            path = self.root / rel
            if path.is_dir():
                self._git_wds[self._inotify.add_watch(str(path), GIT_MASK)] = rel

    def _loop(self) -> None:
        while not self._stop.is_set():
            try:
                events = self._inotify.read(timeout=100)
            except OSError:
                return
            if events:
                self._handle(events)

    def _handle(self, events: list) -> None:  # type: ignore[type-arg]
        detected = time.monotonic_ns()
        ref_changed = False
        touched: list[str] = []
        rescan = False
        for event in events:
            if event.mask & F.Q_OVERFLOW:
                rescan = True
                continue
            if event.wd in self._git_wds:
                in_heads = self._git_wds[event.wd] != ".git"
                ref_changed = (
                    ref_changed
                    or event.name in ("HEAD", "packed-refs")
                    or (in_heads and not event.name.endswith(".lock"))
                )
                continue
            parent = self._dirs.get(event.wd)
            if parent is None:
                continue
            rel = f"{parent}/{event.name}" if parent and event.name else (event.name or parent)
            if event.mask & F.ISDIR:
                if event.mask & (F.CREATE | F.MOVED_TO):
                    touched += self._add_tree(rel)
                if event.mask & (F.MOVED_FROM | F.DELETE | F.MOVED_TO):
                    rescan = True
                continue
            if event.mask & (F.DELETE_SELF | F.MOVE_SELF):
                rescan = True
                continue
            if event.mask & (F.CLOSE_WRITE | F.MOVED_TO | F.MOVED_FROM | F.DELETE):
                touched.append(rel)
        if self.armed and self.firing is None:
            self._judge(touched, rescan, detected)
        elif self.firing is not None:
            self.firing.written_after += [t for t in touched if t not in self.firing.written_after]
        if ref_changed and self.on_ref_change is not None:
            self.on_ref_change()

    def _judge(self, touched: list[str], rescan: bool, detected: int) -> None:
        candidates = [rel for rel in touched if self.is_watched(rel)]
        if rescan:
            current = self._scan()
            candidates += sorted(set(current) ^ set(self._snapshot))
            candidates += sorted(k for k in current if current[k] != self._snapshot.get(k))
        for rel in candidates:
            before = self._snapshot.get(rel)
            after = sha256_file(self.root / rel)
            if before == after:
                continue
            change = "created" if before is None else "deleted" if after is None else "changed"
            try:
                mtime: int | None = os.stat(self.root / rel).st_mtime_ns
            except OSError:
                mtime = None
            firing = Firing(rel, change, before, after, detected, mtime)
            self.firing = firing
            frozen = self.on_fire(firing)  # freezes the agent before anything else happens
            firing.frozen_ns = frozen or time.monotonic_ns()
            firing.frozen_wall_ns = time.time_ns()
            firing.written_between = sorted({t for t in touched if t != rel})
            return
