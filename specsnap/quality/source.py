"""The files of a commit of the agent's repository, read as data (checked git objects, never the
working tree, never imported or run), and what changed between two commits."""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from specsnap.sandbox.gitrepo import list_tree, read_objects

#: Larger files are not read: a signal is not worth parsing megabytes an agent wrote.
MAX_FILE_BYTES = 512 * 1024
#: At most this many files of a commit are read.
MAX_FILES = 5000


@dataclass(frozen=True)
class Snapshot:
    """The regular files of one commit: path -> content (links and oversized files left out)."""

    files: Mapping[str, bytes]
    skipped: tuple[str, ...]  # too big, or beyond MAX_FILES

    def text(self, path: str) -> str:
        return self.files[path].decode("utf-8", "replace")


def snapshot(repo: Path, commit: str) -> Snapshot:
    """`commit`'s regular files, read from checked objects."""
    entries = [e for e in list_tree(repo, commit) if e.mode in ("100644", "100755")]
    blobs = read_objects(repo, sorted({e.blob for e in entries[:MAX_FILES]}))
    files: dict[str, bytes] = {}
    skipped = [e.path for e in entries[MAX_FILES:]]
    for entry in entries[:MAX_FILES]:
        kind, content = blobs[entry.blob]
        if kind != "blob" or len(content) > MAX_FILE_BYTES:
            skipped.append(entry.path)
        else:
            files[entry.path] = content
    return Snapshot(files, tuple(skipped))


def changed_files(base: Snapshot, head: Snapshot) -> list[str]:
    """Paths added or modified from `base` to `head` (deleted ones are not in `head`)."""
    return sorted(p for p, content in head.files.items() if base.files.get(p) != content)


#: Above this many line pairs a line diff could take too long: lines of the new file that the
#: old one does not hold anywhere count as added instead.
DIFF_MAX_PAIRS = 4_000_000


def added_lines(old: str, new: str) -> list[int]:
    """The 1-based numbers of the lines of `new` that are not in `old` (as a diff shows them)."""
    before, after = old.splitlines(), new.splitlines()
    if len(before) * len(after) > DIFF_MAX_PAIRS:
        held = set(before)
        return [number for number, line in enumerate(after, start=1) if line not in held]
    matcher = difflib.SequenceMatcher(None, before, after, autojunk=False)
    return [
        line + 1
        for tag, _, _, j1, j2 in matcher.get_opcodes()
        if tag in ("insert", "replace")
        for line in range(j1, j2)
    ]


def is_test_file(path: str) -> bool:
    """A pytest test module (test_*.py, *_test.py)."""
    name = path.rsplit("/", 1)[-1]
    return name.endswith(".py") and (name.startswith("test_") or name.endswith("_test.py"))


TEST_DIRECTORIES = ("tests", "test")


def is_test_support(path: str) -> bool:
    """What the agent's tests consist of: a test module, a conftest.py, or any file in a `tests`
    (or `test`) directory (helpers, `__init__.py`, data the tests read)."""
    parts = path.split("/")
    return (
        is_test_file(path)
        or parts[-1] == "conftest.py"
        or any(part in TEST_DIRECTORIES for part in parts[:-1])
    )
