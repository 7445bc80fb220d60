"""The cutoff watcher (docs/protocol.md): fired by the first change in content of any source file.

Source = every path of the sandbox matching the tier's `watch` patterns (`**/*.py`: tests and
new files included), plus any symlink to a directory (it can bring source in). Outside `.git`.

The first change in content fires, however it arrives:

- inotify (inotify_simple) reports close-after-write, writes to a file still open (IN_MODIFY),
  renames, creations (a hard link made into the sandbox included) and deletions; the content is
  read at once and compared with the snapshot taken when the cutoff armed;
- a poll every POLL_S re-reads every source file known at arm time or created since: writes
  through `mmap`, or through a hard link or symlink whose other name is outside the sandbox,
  raise no event on the sandbox's directories;
- when the session ends, a last comparison of the whole tree catches what neither saw in time.

A `touch` or a rewrite with the same bytes never fires. A write in progress is judged by what
it has written so far, with one exception: content that is a proper prefix of the snapshot
(the truncation at the start of every rewrite, or a new file still empty) or no content at all
(a file deleted, as `git apply` and some editors do before they write it again) fires only once
the write is closed and a whole poll interval has passed without the file showing other
content, or when the session ends. So a rewrite with the same bytes never fires halfway, however
slow the writer; and such content can only remove code, never add any.

The file that fires is the first one an event named whose content changed; where the poll or
the session's end finds several changed at once, the one written first (modification time,
then path). Once the agent is frozen, the cut is taken (`Cut`): the firing file keeps what it
holds at the freeze; every other watched path that differs from the snapshot was written before
the freeze, so it is *cut away*: put back as it was at arm (specsnap.sandbox.safefiles) once the
agent's processes are gone. Only what changes after the freeze is a breach.

The watcher thread blocks in poll() on the inotify descriptor, so an event wakes it at once; the
freeze callback runs on that thread before anything else is read. It also watches `.git` for
reference updates, so a commit is seen even when the agent disabled the hooks.

Over 400 lines: the three ways a change is seen share one snapshot and one decision.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from inotify_simple import INotify
from inotify_simple import flags as F

from specsnap.sandbox.globs import matches
from specsnap.sandbox.safefiles import Armed, put_back, read_armed
from specsnap.sessions.content import CONTENT_CAP, hard_links, read_content, tree_files

TREE_MASK = (
    F.CLOSE_WRITE
    | F.MODIFY
    | F.MOVED_TO
    | F.MOVED_FROM
    | F.DELETE
    | F.CREATE
    | F.DELETE_SELF
    | F.MOVE_SELF
)
COMPLETE = F.CLOSE_WRITE | F.MOVED_TO | F.MOVED_FROM | F.DELETE
GIT_MASK = F.CLOSE_WRITE | F.MOVED_TO | F.CREATE | F.DELETE
POLL_S = 0.1


@dataclass
class Firing:
    """What fired the cutoff, and what else was written around it."""

    file: str
    change: str  # created, changed or deleted
    sha256_before: str | None
    sha256_after: str | None
    detected_ns: int  # time.monotonic_ns() when the change was seen
    mtime_ns: int | None  # the file's modification time (wall clock), if it still exists
    detected_by: str = "event"  # event, poll or session-end
    frozen_ns: int = 0  # time.monotonic_ns() once the freeze callback returned
    frozen_wall_ns: int = 0

    @property
    def latency_ms(self) -> float:
        """Detection to freeze, in milliseconds."""
        return round((self.frozen_ns - self.detected_ns) / 1e6, 3)


@dataclass
class Cut:
    """The sandbox as the freeze left it, and what the cutoff does with it."""

    trigger: str | None  # the file that keeps its edit (None for a commit's cutoff)
    frozen: dict[str, str | None]  # every path -> digest right after the freeze
    cut_away: list[str]  # other watched paths that differed from the snapshot at the freeze
    blobs: dict[str, str | None]  # cut-away paths and the trigger -> git blob id at the freeze
    written_after: list[str] = field(default_factory=list)  # content changed after the freeze
    not_restored: list[str] = field(default_factory=list)  # cut away, but could not be put back


class CutoffWatcher:
    """Watches `root`; once armed, calls `on_fire` on the first source change (exactly once).

    `on_fire` returns the time.monotonic_ns() at which the agent was frozen, when it froze it.
    """

    def __init__(
        self,
        root: Path,
        watch: tuple[str, ...],
        on_fire: Callable[[Firing], int | None],
        on_ref_change: Callable[[], None] | None = None,
    ) -> None:
        self.root = root
        self.watch = watch
        self.on_fire = on_fire
        self.on_ref_change = on_ref_change
        self.firing: Firing | None = None
        self.cut: Cut | None = None
        self.armed_at_ns: int | None = None
        self.linked_at_arm: list[str] = []
        self.realtime = False  # whether the watcher's thread runs before ordinary processes
        self._snapshot: dict[str, str] = {}  # source path -> digest at arm time
        self._snapshot_bytes: dict[str, bytes] = {}
        self._armed: dict[str, Armed] = {}  # what a cut-away path is put back to
        self._armed_dirs: frozenset[str] = frozenset()
        self._known: set[str] = set()  # source paths the poll re-reads
        self._pending: dict[str, int] = {}  # source path -> when a prefix of the snapshot was seen
        self._writing: set[str] = set()  # paths modified and not closed since
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

    def finish(self) -> None:
        """Stop watching once the agent is gone: read what is still queued, compare the whole
        tree with the snapshot (a change nothing reported yet fires now), settle which paths
        changed after the freeze, and put back what the cut cut away."""
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout=5)
        try:
            if self.armed and self.firing is None:
                events = self._inotify.read(timeout=0)
                if events:
                    self._handle(events)
                if self.firing is None:
                    every = set(self._scan_paths()) | set(self._snapshot)
                    self._judge(sorted(every), "session-end", settled=every)
        finally:
            self._inotify.close()
        cut = self.cut
        if cut is None:
            return
        after = {rel: read_content(self.root / rel)[0] for rel in tree_files(self.root)}
        cut.written_after = sorted(
            rel for rel in set(after) | set(cut.frozen) if after.get(rel) != cut.frozen.get(rel)
        )
        for rel in cut.cut_away:
            armed = self._armed.get(rel)
            restorable = armed is not None or rel not in self._snapshot
            if not (restorable and put_back(self.root, rel, armed, self._armed_dirs)):
                cut.not_restored.append(rel)

    def take_cut(self, trigger: str | None) -> None:
        """Record the sandbox right after the freeze (exactly once): `trigger` keeps its edit,
        every other watched change is to be cut away."""
        with self._lock:
            if self.cut is not None or not self.armed:
                return
            frozen = {rel: read_content(self.root / rel)[0] for rel in tree_files(self.root)}
            watched = {rel for rel in frozen if self.is_watched(rel)} | set(self._snapshot)
            changed = sorted(rel for rel in watched if frozen.get(rel) != self._snapshot.get(rel))
            blobs = {}
            for rel in changed:
                now = read_armed(self.root / rel, CONTENT_CAP)
                blobs[rel] = now.blob_id if now is not None else None
            cut_away = [rel for rel in changed if rel != trigger]
            self.cut = Cut(trigger, frozen, cut_away, blobs)

    def blobs_seen(self, rel: str) -> set[str | None]:
        """The git blob ids the working tree held at `rel` when the cutoff armed, at the freeze
        and now (None: no file): what ordinary git could have staged from watched writes."""
        seen: set[str | None] = set()
        if rel in self._armed:
            seen.add(self._armed[rel].blob_id)
        elif rel not in self._snapshot:
            seen.add(None)
        if self.cut is not None and rel in self.cut.blobs:
            seen.add(self.cut.blobs[rel])
        now = read_armed(self.root / rel, CONTENT_CAP)
        seen.add(now.blob_id if now is not None else None)
        return seen

    @property
    def armed(self) -> bool:
        return self.armed_at_ns is not None

    def arm(self) -> None:
        """Snapshot every source file and start firing on changes (idempotent)."""
        with self._lock:
            if self.armed_at_ns is not None:
                return
            for rel in self._scan_paths():
                digest, data = read_content(self.root / rel)
                if digest is not None:
                    self._snapshot[rel] = digest
                    if data is not None:
                        self._snapshot_bytes[rel] = data
                    if (armed := read_armed(self.root / rel, CONTENT_CAP)) is not None:
                        self._armed[rel] = armed
            self._armed_dirs = frozenset(_directories(self.root))
            self._known = set(self._snapshot)
            self.linked_at_arm = hard_links(self.root)
            self.armed_at_ns = time.monotonic_ns()

    def is_watched(self, rel: str) -> bool:
        if matches(rel, self.watch) or rel in self._known:
            return True
        path = self.root / rel
        return path.is_symlink() and path.is_dir()

    def source_changes(self) -> dict[str, str]:
        """Source paths whose content now differs from the snapshot -> created/changed/deleted."""
        changes = {}
        for rel in sorted(set(self._scan_paths()) | set(self._snapshot)):
            before, after = self._snapshot.get(rel), read_content(self.root / rel)[0]
            if before != after:
                changes[rel] = _change(before, after)
        return changes

    # -- internals --------------------------------------------------------------------------

    def _scan_paths(self) -> list[str]:
        return [rel for rel in tree_files(self.root) if self.is_watched(rel)]

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
            names = filenames + [d for d in dirnames if os.path.islink(os.path.join(dirpath, d))]
            files += [f"{rel}/{name}" if rel else name for name in names]
        return files

    def _add_git_watches(self) -> None:
        for rel in (".git", ".git/refs/heads"):
            path = self.root / rel
            if path.is_dir() and not path.is_symlink():
                self._git_wds[self._inotify.add_watch(str(path), GIT_MASK)] = rel

    def _loop(self) -> None:
        self.realtime = _run_first()
        next_poll = time.monotonic() + POLL_S
        while not self._stop.is_set():
            timeout_ms = max(0, int((next_poll - time.monotonic()) * 1000))
            try:
                events = self._inotify.read(timeout=timeout_ms)
            except OSError:
                return
            if events:
                self._handle(events)
            if time.monotonic() >= next_poll:
                next_poll = time.monotonic() + POLL_S
                if self.armed and self.firing is None:
                    self._poll()

    def _poll(self) -> None:
        now = time.monotonic_ns()
        # A prefix of the snapshot seen a whole poll ago, in a file no write is open on (as far
        # as inotify told: modified, not closed since), is no longer a rewrite in progress.
        waited = {
            p
            for p, seen in self._pending.items()
            if now - seen >= POLL_S * 1e9 and p not in self._writing
        }
        self._judge(sorted(self._known), "poll", settled=waited)

    def _handle(self, events: list) -> None:  # type: ignore[type-arg]
        ref_changed = False
        touched: dict[str, None] = {}  # ordered set of the paths events named
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
                    touched.update(dict.fromkeys(self._add_tree(rel)))
                if event.mask & (F.MOVED_FROM | F.DELETE | F.MOVED_TO):
                    rescan = True
                continue
            if event.mask & (F.DELETE_SELF | F.MOVE_SELF):
                rescan = True
                continue
            touched[rel] = None
            if event.mask & F.MODIFY:
                self._writing.add(rel)
            if event.mask & COMPLETE:
                self._writing.discard(rel)
        if rescan:
            touched.update(dict.fromkeys(self._scan_paths()))
            touched.update(dict.fromkeys(self._snapshot))
        if self.armed and self.firing is None:
            self._judge(list(touched), "event")
        if ref_changed and self.on_ref_change is not None:
            self.on_ref_change()

    def _judge(
        self,
        touched: list[str],
        detected_by: str,
        settled: set[str] | frozenset[str] = frozenset(),
    ) -> None:
        """Fire on the first touched source path whose content differs from the snapshot
        (content that is a prefix of the snapshot, or none, only once `settled`). Touched paths
        come in the order events named them; a poll or the session's end sees them all at once,
        so there the one written first fires."""
        if self.cut is not None:
            return
        detected = time.monotonic_ns()
        changed: list[tuple[str, str | None, str | None]] = []
        for rel in touched:
            if not self.is_watched(rel):
                continue
            self._known.add(rel)
            before = self._snapshot.get(rel)
            after, data = read_content(self.root / rel)
            if after == before:
                self._pending.pop(rel, None)
                continue
            if rel not in settled and self._rewriting(rel, after, data):
                self._pending.setdefault(rel, detected)
                continue
            changed.append((rel, before, after))
            if detected_by == "event":
                break
        if changed:
            first = min(changed, key=lambda change: (_mtime(self.root / change[0]), change[0]))
            self._fire(*first, detected, detected_by)

    def _rewriting(self, rel: str, after: str | None, data: bytes | None) -> bool:
        """Whether the content is a proper prefix of the snapshot (empty, for a new file), or
        a file of the snapshot is gone."""
        if after is None:
            return rel in self._snapshot
        if data is None:
            return False
        if rel not in self._snapshot:
            return data == b""
        old = self._snapshot_bytes.get(rel)
        return old is not None and len(data) < len(old) and old.startswith(data)

    def _fire(
        self,
        rel: str,
        before: str | None,
        after: str | None,
        detected: int,
        detected_by: str,
    ) -> None:
        try:
            mtime: int | None = os.lstat(self.root / rel).st_mtime_ns
        except OSError:
            mtime = None
        firing = Firing(rel, _change(before, after), before, after, detected, mtime, detected_by)
        self.firing = firing
        frozen = self.on_fire(firing)  # freezes the agent before anything else happens
        firing.frozen_ns = frozen or time.monotonic_ns()
        firing.frozen_wall_ns = time.time_ns()
        self.take_cut(rel)


def _run_first() -> bool:
    """Give the calling thread (the watcher's) real-time priority where allowed (root, outside a
    container that withholds CAP_SYS_NICE): on a busy machine it then wakes, and freezes the
    agent, before any ordinary process runs again. It sleeps in poll() almost all the time, and
    the kernel's real-time throttling bounds it in any case. Processes it forks (the freeze's
    helper) do not inherit the priority."""
    try:
        os.sched_setscheduler(0, os.SCHED_FIFO | os.SCHED_RESET_ON_FORK, os.sched_param(1))
    except (OSError, AttributeError):
        return False
    return True


def _mtime(path: Path) -> int:
    try:
        return os.lstat(path).st_mtime_ns
    except OSError:
        return 1 << 63  # gone: its deletion's time is unknown, so it comes after every write


def _directories(root: Path) -> list[str]:
    """Every directory under `root` outside `.git`, repository-relative."""
    found = []
    for dirpath, dirnames, _filenames in os.walk(root):
        rel = os.path.relpath(dirpath, root).replace(os.sep, "/")
        if rel == ".":
            dirnames[:] = [d for d in dirnames if d != ".git"]
            continue
        found.append(rel)
    return found


def _change(before: str | None, after: str | None) -> str:
    return "created" if before is None else "deleted" if after is None else "changed"
