"""What a path of the sandbox holds, read without ever blocking or following the agent into a
trap (a FIFO, a device, a huge file), and which paths there are."""

from __future__ import annotations

import hashlib
import os
import stat
from pathlib import Path

CONTENT_CAP = 8 * 1024 * 1024  # bytes read per file; beyond it, size and mtime stand in


def read_content(path: Path) -> tuple[str | None, bytes | None]:
    """(digest, bytes) of what `path` holds; (None, None) when nothing is there.

    Bytes are given for regular files only (for the prefix rule). A symlink's digest covers its
    target and what it leads to. Nothing here blocks: FIFOs and devices are never opened for
    reading, and at most CONTENT_CAP bytes are read.
    """
    try:
        info = os.lstat(path)
    except (FileNotFoundError, NotADirectoryError):
        return None, None
    except OSError:
        return "unreadable", None
    label = b""
    if stat.S_ISLNK(info.st_mode):
        label = b"symlink\0" + os.fsencode(os.readlink(path)) + b"\0"
    elif not stat.S_ISREG(info.st_mode):
        kind = "directory" if stat.S_ISDIR(info.st_mode) else "special"
        return kind, None
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY)
    except OSError:
        return hashlib.sha256(label + b"unreachable").hexdigest(), None
    try:
        opened = os.fstat(fd)
        if not stat.S_ISREG(opened.st_mode):
            data = b"directory" if stat.S_ISDIR(opened.st_mode) else b"special"
        else:
            chunks, size = [], 0
            while size <= CONTENT_CAP and (chunk := os.read(fd, 1 << 20)):
                chunks.append(chunk)
                size += len(chunk)
            data = b"".join(chunks)
            if size > CONTENT_CAP:
                data = data[:CONTENT_CAP] + f"\0{opened.st_size}\0{opened.st_mtime_ns}".encode()
    finally:
        os.close(fd)
    return hashlib.sha256(label + data).hexdigest(), None if label else data


def tree_files(root: Path, *, with_git: bool = False) -> list[str]:
    """Every non-directory path under `root` (symlinks to directories included, not followed)."""
    found = []
    for dirpath, dirnames, filenames in os.walk(root):
        rel_dir = os.path.relpath(dirpath, root).replace(os.sep, "/")
        prefix = "" if rel_dir == "." else rel_dir + "/"
        if not prefix and not with_git and ".git" in dirnames:
            dirnames.remove(".git")
        found += [prefix + name for name in filenames]
        found += [prefix + name for name in dirnames if os.path.islink(os.path.join(dirpath, name))]
    return found


def hard_links(root: Path) -> list[str]:
    """Regular files under `root` (.git included) with more than one name."""
    linked = []
    for rel in tree_files(root, with_git=True):
        try:
            info = os.lstat(root / rel)
        except OSError:
            continue
        if stat.S_ISREG(info.st_mode) and info.st_nlink > 1:
            linked.append(rel)
    return sorted(linked)
