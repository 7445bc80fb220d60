"""What moves between sessions under `--handoff resume|compact` (docs/protocol.md): exactly
the adapter's declared state paths of the cut-off session's HOME, nothing else.

Root copies them from the cut-off session's retired HOME (its records, root-owned) into the
next session's fresh HOME before handing that over. The store is agent-written, so the copy
takes directories and regular files only (a symlink or a special file is skipped, never
followed, and said so), at most MAX_STATE_BYTES in all, and the session's id comes from one
file's *name* matching the adapter's strict pattern; nothing inside the store is read or run.
The record (`handoff` in session.json) names what moved, with a Merkle digest of it.
"""

from __future__ import annotations

import os
import re
import stat
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

from specsnap.agents.base import HandoffSupport
from specsnap.scorecard.receipt import file_digest, tree_digest

MAX_STATE_BYTES = 64 * 1024 * 1024
_COPY_CHUNK = 1024 * 1024


@dataclass
class Carried:
    """What was carried into one session's HOME."""

    mode: str
    files: list[str] = field(default_factory=list)  # HOME-relative, in copy order
    size: int = 0  # bytes copied
    skipped: list[str] = field(default_factory=list)  # what was refused, and why
    digests: dict[bytes, bytes] = field(default_factory=dict)  # top-level name → Merkle digest
    session_id: str | None = None
    error: str | None = None

    def record(self) -> dict[str, Any]:
        """The session record's `handoff` entry."""
        return {
            "mode": self.mode,
            "session_id": self.session_id,
            "state_files": len(self.files),
            "state_bytes": self.size,
            "state_sha256": tree_digest(self.digests).hex(),
            "skipped": list(self.skipped),
            "error": self.error,
        }


def carry_state(mode: str, support: HandoffSupport, previous: Path, home: Path) -> Carried:
    """Copy `support.state_paths` of the previous session's retired HOME `previous` into the
    fresh `home`, and find the session id to resume. A store that is missing or names no
    single session is `error`, not an exception: the record says what was wrong."""
    carried = Carried(mode)
    for relative in support.state_paths:
        _copy_entry(previous, home, PurePosixPath(relative), carried)
    carried.session_id, carried.error = _session_id(carried.files, support.session_file)
    return carried


def _copy_entry(source_home: Path, home: Path, relative: PurePosixPath, carried: Carried) -> None:
    source = source_home / relative
    try:
        # Every directory on the way must be one: a HOME's `.gemini` made a link to `/` would
        # otherwise carry root's `/tmp` in as `.gemini/tmp`.
        for depth in range(1, len(relative.parts)):
            parent = source_home.joinpath(*relative.parts[:depth])
            if not stat.S_ISDIR(os.lstat(parent).st_mode):
                carried.skipped.append(
                    f"{relative}: {parent.name} is not a directory (not followed)"
                )
                return
        info = os.lstat(source)
    except FileNotFoundError:
        return
    digest = _copy(source, home / relative, relative, info, carried)
    if digest is not None:
        carried.digests[str(relative).encode()] = digest


def _copy(
    source: Path, target: Path, relative: PurePosixPath, info: os.stat_result, carried: Carried
) -> bytes | None:
    """Copy one entry; its Merkle digest, or None when it was skipped."""
    if stat.S_ISDIR(info.st_mode):
        target.mkdir(mode=0o700, parents=True, exist_ok=True)
        children = {}
        for name in sorted(os.listdir(source)):
            child = source / name
            digest = _copy(child, target / name, relative / name, os.lstat(child), carried)
            if digest is not None:
                children[name.encode()] = digest
        return tree_digest(children)
    if not stat.S_ISREG(info.st_mode):
        carried.skipped.append(f"{relative}: not a regular file or directory (not followed)")
        return None
    if carried.size + info.st_size > MAX_STATE_BYTES:
        carried.skipped.append(f"{relative}: over the {MAX_STATE_BYTES} bytes state bound")
        return None
    content = _read_regular(source)
    target.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
    with os.fdopen(fd, "wb") as handle:
        handle.write(content)
    carried.files.append(str(relative))
    carried.size += len(content)
    return file_digest(content, executable=False)


def _read_regular(path: Path) -> bytes:
    """The file's content, opened without following a symlink swapped in since the lstat."""
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    with os.fdopen(fd, "rb") as handle:
        return handle.read(MAX_STATE_BYTES + 1)[:MAX_STATE_BYTES]


def _session_id(files: list[str], pattern: str) -> tuple[str | None, str | None]:
    """The one session id the copied file names give; (None, why) when there is none or more."""
    found = sorted({m.group(1) for f in files if (m := re.fullmatch(pattern, f)) is not None})
    if len(found) == 1:
        return found[0], None
    if not found:
        return None, "the cut-off session left no session in its store to resume"
    return None, f"the cut-off session's store names {len(found)} sessions; expected one"
