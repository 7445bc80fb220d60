"""Writing into a directory tree the agent owns, as root, once every process of the agent is
gone: putting a cut-away path back as it was when the cutoff armed (docs/protocol.md, Cutoff:
what a cutoff cuts away), and copying into the agent's repository what git made in SpecSnap's
own (specsnap.sandbox.gitrepo).

Every step goes through directory descriptors opened with O_NOFOLLOW, so a symlink the agent
planted (a directory replaced by a link to `/etc`, say) is never followed out of the tree. A
path that cannot be written that way is left as it is, and the caller says so.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import stat
from dataclasses import dataclass
from pathlib import Path

DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC


@dataclass(frozen=True)
class Armed:
    """What a watched path held when the cutoff armed, enough to write it again."""

    symlink: bool
    data: bytes  # the file's bytes, or the link's target
    mode: int  # permission bits of a file

    @property
    def blob_id(self) -> str:
        """Its git blob id (sha1 object format), to compare with an index entry."""
        return blob_id(self.data)


def blob_id(data: bytes) -> str:
    """The git blob id (sha1 object format) of `data`."""
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


def read_armed(path: Path, cap: int) -> Armed | None:
    """What `path` holds now as an Armed entry; None when it is not a regular file or symlink,
    or larger than `cap` bytes (such a path cannot be put back)."""
    try:
        info = os.lstat(path)
        if stat.S_ISLNK(info.st_mode):
            return Armed(True, os.fsencode(os.readlink(path)), 0)
        if not stat.S_ISREG(info.st_mode) or info.st_size > cap:
            return None
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return None
    try:
        chunks, size = [], 0
        while size <= cap and (chunk := os.read(fd, 1 << 20)):
            chunks.append(chunk)
            size += len(chunk)
    finally:
        os.close(fd)
    return None if size > cap else Armed(False, b"".join(chunks), stat.S_IMODE(info.st_mode))


def put_back(root: Path, rel: str, armed: Armed | None, armed_dirs: frozenset[str]) -> bool:
    """Make `rel` (repository-relative) hold `armed` again, or not exist if `armed` is None;
    directories made since arming that this leaves empty are removed. False if it could not."""
    parts = rel.split("/")
    fds = [os.open(root, DIR_FLAGS)]
    try:
        for name in parts[:-1]:
            try:
                fds.append(os.open(name, DIR_FLAGS, dir_fd=fds[-1]))
            except FileNotFoundError:
                if armed is None:
                    return True  # nothing there to remove
                os.mkdir(name, 0o755, dir_fd=fds[-1])
                fds.append(os.open(name, DIR_FLAGS, dir_fd=fds[-1]))
        _replace(fds[-1], parts[-1], armed)
        for depth in range(len(parts) - 1, 0, -1):  # the directories of `rel`, deepest first
            if "/".join(parts[:depth]) in armed_dirs:
                break
            try:
                os.rmdir(parts[depth - 1], dir_fd=fds[depth - 1])
            except OSError:
                break  # not empty: something else lives there
    except OSError:
        return False
    finally:
        for fd in fds:
            os.close(fd)
    return True


def write_under(root: Path, rel: str, data: bytes, mode: int) -> bool:
    """Make the regular file `rel` under `root` hold `data` (a new file renamed over nothing:
    any old file or link at `rel` is removed first, never written through). False if it could
    not."""
    parts = rel.split("/")
    keep = frozenset("/".join(parts[:depth]) for depth in range(1, len(parts)))
    return put_back(root, rel, Armed(False, data, mode), keep)


def _replace(dir_fd: int, name: str, armed: Armed | None) -> None:
    with contextlib.suppress(FileNotFoundError):
        os.unlink(name, dir_fd=dir_fd)  # a file or a symlink (never followed)
    if armed is None:
        return
    if armed.symlink:
        os.symlink(armed.data, name, dir_fd=dir_fd)
        return
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
    fd = os.open(name, flags, 0o600, dir_fd=dir_fd)
    try:
        view = memoryview(armed.data)
        while view:
            view = view[os.write(fd, view) :]
        os.fchmod(fd, armed.mode)
    finally:
        os.close(fd)
