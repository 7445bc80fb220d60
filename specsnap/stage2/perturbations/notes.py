"""The agent's notes, and the stale value planted in them.

A *note* is anything the next session can read that is not Python source (or its bytecode) and
that the agent created or changed since the baseline commit: any file of the working tree, in any
directory (`.pytest_cache`, `__pycache__` and the files of `.git` that are not git's own object
store, refs, logs, index or hooks included), reached directly or through a symlink that stays in
the sandbox (the link's target is the note), of any content: values are matched byte for byte.
A *stale note* replaces one value the seed drew for the sprint with another choice of the same
parameter, wherever a note states it. What the agent carries that the stale note cannot change
(a file larger than NOTE_MAX_BYTES, the agent's own commits since the baseline: their messages
and the non-Python files they hold) is recorded, and makes the run unofficial (docs/protocol.md,
Stage II).

Which value: one the notes state and the agent's code does not yet hold (work already written
with the right value is not what a stale note can spoil), that its requirement's text states
without any other choice of the same parameter (so the changed note states one value, the
wrong one), at least two characters long (so it is never a list number), chosen by the seed;
the wrong value is another of its choices, also chosen by the seed. Values are matched as
whole tokens: `1000` is not found in `10000` or `1000.5`, `quote_freight` not in
`quote_freight_eu`.
"""

from __future__ import annotations

import os
import random
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from specsnap.sandbox.gitrepo import commits_between, read_objects
from specsnap.stage2.perturbations.workspace import (
    NotApplicable,
    blob_content,
    head_blobs,
    read_file,
)
from specsnap.tier.model import Tier
from specsnap.tier.params import render

#: A note larger than this is not read whole (it is recorded as carried state left unchanged).
NOTE_MAX_BYTES = 64 << 20
#: Python source and its bytecode: code, not notes.
CODE_SUFFIXES = (".py", ".pyc", ".pyo")
#: What of `.git` is git's own (objects, refs, their logs, the index, SpecSnap's hooks).
GIT_INTERNAL_DIRS = frozenset({"objects", "refs", "logs", "hooks", "lfs", "modules", "worktrees"})
GIT_INTERNAL_FILES = frozenset(
    {"HEAD", "ORIG_HEAD", "FETCH_HEAD", "MERGE_HEAD", "index", "packed-refs", "shallow"}
)


def token(value: str) -> re.Pattern[str]:
    """`value` as a whole token: not inside a longer word or number."""
    return re.compile(r"(?<!\w)(?<!\d\.)" + re.escape(value) + r"(?!\w)(?!\.\d)")


def states(text: str, value: str) -> bool:
    return token(value).search(text) is not None


@dataclass(frozen=True)
class Candidate:
    param: str
    requirement: str
    value: str
    choices: tuple[str, ...]


def stale_candidates(
    tier: Tier, values: Mapping[str, object], notes: Mapping[str, str], code: str
) -> list[Candidate]:
    """The drawn values a stale note may replace, in the tier's order (see the module doc).

    `values` are the seed's (drawn and derived). Only a value that its requirement's text
    states without any other choice of the same parameter is taken, so that the note, once
    changed, states one value for it: the wrong one."""
    found = []
    for req in tier.requirements:
        text = render(f"{req.title}\n{req.text}", values)
        for param in req.params:
            value = str(values[param.name])
            choices = tuple(str(c) for c in param.choices)
            if not unambiguous(text, value, choices) or states(code, value):
                continue
            if any(states(note, value) for note in notes.values()):
                found.append(Candidate(param.name, req.id, value, choices))
    return found


def unambiguous(text: str, value: str, choices: tuple[str, ...]) -> bool:
    """`text` states `value` (two characters or more) and no other of `choices`."""
    others = [c for c in choices if c != value]
    return len(value) >= 2 and states(text, value) and not any(states(text, o) for o in others)


def choose_stale(candidates: list[Candidate], rng: random.Random) -> tuple[Candidate, str]:
    """The value to replace, and the wrong value it becomes."""
    chosen = rng.choice(candidates)
    wrong = rng.choice([c for c in chosen.choices if c != chosen.value])
    return chosen, wrong


def replace_value(text: str, old: str, new: str) -> tuple[str, int]:
    """`text` with every token `old` replaced by `new`, and how many there were."""
    return token(old).subn(new.replace("\\", "\\\\"), text)


def agent_notes(repo: Path, baseline: str) -> tuple[dict[str, bytes], list[str]]:
    """Every note of the sandbox (see the module doc), path -> bytes, and the paths of files
    too large to read as one."""
    base = head_blobs(repo, baseline)
    notes: dict[str, bytes] = {}
    too_large = []
    for rel in readable_files(repo):
        if rel.endswith(CODE_SUFFIXES) or rel in notes:
            continue
        try:
            if os.stat(repo / rel).st_size > NOTE_MAX_BYTES:
                too_large.append(rel)
                continue
            content = read_file(repo, rel, inside_git=True)
        except (OSError, NotApplicable):  # a path the agent made odd is no note of ours to read
            continue
        if content is None or (rel in base and blob_content(repo, base[rel][1]) == content):
            continue
        notes[rel] = content
    return notes, too_large


def as_text(data: bytes) -> str:
    """`data` as text, one character per byte, so a value matches byte for byte and a note
    goes back to the same bytes (latin-1 maps every byte)."""
    return data.decode("latin-1")


def added_code(repo: Path, baseline: str) -> str:
    """The text of every Python file the agent created or changed since `baseline`."""
    base = head_blobs(repo, baseline)
    parts = []
    for rel in readable_files(repo):
        if not rel.endswith(".py") or rel.startswith(".git/"):
            continue
        try:
            content = read_file(repo, rel)
        except (OSError, NotApplicable):
            continue
        if content is not None and (rel not in base or blob_content(repo, base[rel][1]) != content):
            parts.append(content.decode("utf-8", "replace"))
    return "\n".join(parts)


def readable_files(repo: Path) -> list[str]:
    """Every regular file of the sandbox the next session can read, by the path SpecSnap can
    write it at: its own, or a symlink's target inside the sandbox (links are followed, never
    out of it). Git's own files are left out (GIT_INTERNALS). Sorted."""
    root = repo.resolve()
    found: set[str] = set()
    seen_dirs: set[str] = set()
    for dirpath, dirnames, filenames in os.walk(repo, followlinks=True):
        real_dir = os.path.realpath(dirpath)
        if real_dir in seen_dirs or not Path(real_dir).is_relative_to(root):
            dirnames[:] = []
            continue
        seen_dirs.add(real_dir)
        dirnames.sort()
        for name in filenames:
            real = Path(os.path.realpath(os.path.join(dirpath, name)))
            if not real.is_relative_to(root) or not real.is_file():
                continue
            rel = real.relative_to(root).as_posix()
            if not _git_internal(rel):
                found.add(rel)
    return sorted(found)


def _git_internal(rel: str) -> bool:
    if not rel.startswith(".git/"):
        return False
    inside = rel[len(".git/") :]
    return inside.split("/")[0] in GIT_INTERNAL_DIRS or inside in GIT_INTERNAL_FILES


def history_stating(repo: Path, baseline: str, value: str) -> list[str]:
    """The agent's commits since `baseline` whose message, or a non-Python file they hold at
    HEAD, states `value`: carried state a stale note cannot change."""
    found = []
    head = head_blobs(repo)
    base = head_blobs(repo, baseline)
    for commit in commits_between(repo, baseline, "HEAD"):
        _kind, content = read_objects(repo, [commit])[commit]
        message = content.split(b"\n\n", 1)[1] if b"\n\n" in content else b""
        if states(as_text(message), value):
            found.append(f"the message of commit {commit[:12]}")
    for rel, (_mode, blob) in sorted(head.items()):
        if rel.endswith(CODE_SUFFIXES) or base.get(rel) == (_mode, blob):
            continue
        if states(as_text(blob_content(repo, blob)), value):
            found.append(f"{rel} as committed")
    return found
