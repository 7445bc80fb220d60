"""What Stage II's retention needs to know of a session: whether it changed the sources.

A requirement counts as *retained* only if its ticket was not read after session 1 before the
code was written (docs/protocol.md, Stage II). SpecSnap cannot tell which lines serve which
requirement without grading every moment, so it asks the question it can answer exactly: did
the session change any Python source? `sources_digest` is taken of the working tree when the
session starts (after Stage II's perturbations) and when it has ended (its processes gone).

Read as root from a tree the agent wrote: only regular files, opened without following links
and without blocking, hashed in chunks; a symbolic link counts by its target text.
"""

from __future__ import annotations

import hashlib
import os
import stat
from pathlib import Path

SKIPPED = frozenset({".git", "__pycache__"})
CHUNK = 1 << 20


def sources_digest(root: Path) -> str:
    """sha256 over every `*.py` below `root` (not in .git or __pycache__): path, kind, content."""
    digest = hashlib.sha256()
    for rel, kind, content in sorted(_sources(root)):
        digest.update(rel.encode("utf-8", "surrogateescape") + b"\0" + kind + b"\0" + content)
    return digest.hexdigest()


def _sources(root: Path) -> list[tuple[str, bytes, bytes]]:
    found: list[tuple[str, bytes, bytes]] = []
    stack = [""]
    while stack:
        rel_dir = stack.pop()
        try:
            entries = list(os.scandir(root / rel_dir if rel_dir else root))
        except OSError:
            continue
        for entry in entries:
            rel = f"{rel_dir}/{entry.name}" if rel_dir else entry.name
            try:
                info = entry.stat(follow_symlinks=False)
            except OSError:
                continue
            if stat.S_ISDIR(info.st_mode):
                if entry.name not in SKIPPED:
                    stack.append(rel)
            elif entry.name.endswith(".py"):
                if stat.S_ISLNK(info.st_mode):
                    found.append((rel, b"link", os.fsencode(os.readlink(entry.path))))
                elif stat.S_ISREG(info.st_mode):
                    found.append((rel, b"file", _content_digest(entry.path)))
    return found


def _content_digest(path: str) -> bytes:
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return b"unreadable"
    digest = hashlib.sha256()
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return b"not a file"
        while chunk := os.read(fd, CHUNK):
            digest.update(chunk)
    except OSError:
        return b"unreadable"
    finally:
        os.close(fd)
    return digest.digest()
