"""The agent's notes, and the stale value planted in them.

A *note* is any file of the working tree that is not Python source, that the agent created or
changed since the baseline commit, and that reads as UTF-8 text (at most 1 MiB): what the agent
wrote down for later. A *stale note* replaces one value the seed drew for the sprint with
another choice of the same parameter, wherever the note states it.

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

from specsnap.params import render
from specsnap.perturbations.workspace import NotApplicable, blob_content, head_blobs, read_file
from specsnap.tiers import Tier

NOTE_MAX_BYTES = 1 << 20
SKIPPED_DIRS = {".git", "__pycache__", ".pytest_cache", ".mypy_cache", ".ruff_cache"}


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


def agent_notes(repo: Path, baseline: str) -> dict[str, str]:
    """Every note of the working tree (see the module doc), path -> text."""
    base = head_blobs(repo, baseline)
    notes = {}
    for rel in _working_files(repo):
        if rel.endswith(".py"):
            continue
        content = _small_file(repo, rel)
        if content is None or (rel in base and blob_content(repo, base[rel][1]) == content):
            continue
        try:
            notes[rel] = content.decode("utf-8")
        except UnicodeDecodeError:
            continue
    return notes


def added_code(repo: Path, baseline: str) -> str:
    """The text of every Python file the agent created or changed since `baseline`."""
    base = head_blobs(repo, baseline)
    parts = []
    for rel in _working_files(repo):
        if not rel.endswith(".py"):
            continue
        content = _small_file(repo, rel)
        if content is not None and (rel not in base or blob_content(repo, base[rel][1]) != content):
            parts.append(content.decode("utf-8", "replace"))
    return "\n".join(parts)


def _small_file(repo: Path, rel: str) -> bytes | None:
    try:
        if os.lstat(repo / rel).st_size > NOTE_MAX_BYTES:
            return None
        return read_file(repo, rel)
    except (OSError, NotApplicable):  # a path the agent made odd is no note of ours to read
        return None


def _working_files(repo: Path) -> list[str]:
    """Regular files of the working tree (symlinks are not followed), sorted."""
    found = []
    for dirpath, dirnames, filenames in os.walk(repo):
        dirnames[:] = sorted(d for d in dirnames if d not in SKIPPED_DIRS)
        for name in filenames:
            path = Path(dirpath) / name
            if path.is_file() and not path.is_symlink():
                found.append(path.relative_to(repo).as_posix())
    return sorted(found)
