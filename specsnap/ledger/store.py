"""The ledger file: JSON Lines, read whole, appended under a lock, replaced atomically.

Appending rewrites the file through a temporary file and a rename, so a crash leaves either the
old ledger or the new one, never half a line; an exclusive lock on `LEDGER.lock` serialises
appenders on one machine (the leaderboard workflow also runs one job at a time).
"""

from __future__ import annotations

import contextlib
import fcntl
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from specsnap.errors import UsageError
from specsnap.ledger.chain import (
    Judgement,
    Ledger,
    Outcome,
    chain_problems,
    extension_problems,
    judge,
    stage_for,
    unlocking_entry,
)
from specsnap.ledger.entry import Candidate, Entry, decode_entry, encode_entry, entry_digest

#: A ledger larger than this is refused rather than read into memory.
MAX_LEDGER_BYTES = 64 * 1024 * 1024


class LedgerError(UsageError):
    """The ledger file cannot be read as a ledger, or breaks its own rules."""

    def __init__(self, path: Path, problems: list[str]) -> None:
        self.problems = problems
        lines = "\n".join(f"  - {p}" for p in problems)
        super().__init__(f"{path}: the ledger is broken ({len(problems)} problem(s)):\n{lines}")


@dataclass(frozen=True)
class LedgerFile:
    """A ledger as read from disk, with everything wrong with it."""

    path: Path
    ledger: Ledger
    problems: tuple[str, ...]

    @property
    def intact(self) -> bool:
        return not self.problems


def read_ledger(path: Path) -> LedgerFile:
    """The ledger at `path` (a missing file is an empty ledger) and its problems: lines that are
    not entries, and breaks of the chain or the rules."""
    try:
        if path.stat().st_size > MAX_LEDGER_BYTES:
            raise UsageError(f"{path} is larger than {MAX_LEDGER_BYTES} bytes; not a ledger")
        data = path.read_bytes()
    except FileNotFoundError:
        return LedgerFile(path, Ledger(), ())
    except OSError as exc:
        raise UsageError(f"cannot read the ledger {path}: {exc}") from None
    problems: list[str] = []
    entries: list[Entry] = []
    digests: list[str] = []
    if data and not data.endswith(b"\n"):
        problems.append(f"{path}: the last line is incomplete (no final newline)")
    for number, line in enumerate(data.splitlines(), start=1):
        try:
            entries.append(decode_entry(line, f"line {number}"))
        except ValueError as exc:
            problems.append(str(exc))
            continue
        digests.append(entry_digest(line))
    ledger = Ledger(tuple(entries), tuple(digests))
    if not problems:
        problems += chain_problems(ledger)
    return LedgerFile(path, ledger, tuple(problems))


def ledger_problems(path: Path, earlier: Path | None = None) -> tuple[Ledger, list[str]]:
    """The ledger at `path` and everything wrong with it, including (given an earlier copy)
    every earlier entry it no longer keeps in place."""
    found = read_ledger(path)
    problems = list(found.problems)
    if earlier is not None:
        before = read_ledger(earlier)
        problems += [f"{earlier}: {p}" for p in before.problems]
        problems += extension_problems(before.ledger, found.ledger)
    return found.ledger, problems


def load_ledger(path: Path) -> Ledger:
    """The ledger at `path`; LedgerError when it is broken (nothing is decided on a broken one)."""
    found = read_ledger(path)
    if found.problems:
        raise LedgerError(path, list(found.problems))
    return found.ledger


def stage_required(path: Path) -> int:
    """The stage every evaluation runs, by the ledger at `path`: 2 once Stage II is unlocked,
    else 1. For the run command and the Action to consult; a broken ledger is an error, never
    read as locked."""
    return stage_for(load_ledger(path).entries)


def unlocked_by(path: Path) -> Entry | None:
    """The entry that unlocked Stage II in the ledger at `path`; None while locked."""
    return unlocking_entry(load_ledger(path).entries)


def append_candidate(
    path: Path, candidate: Candidate, now: Callable[[], datetime] | None = None
) -> Judgement:
    """Judge `candidate` against the ledger at `path` and append it when taken."""
    with _locked(path):
        ledger = load_ledger(path)
        stamp = (now or _utc_now)().astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
        judgement = judge(ledger, candidate, stamp)
        if judgement.outcome is Outcome.APPENDED:
            assert judgement.entry is not None
            _write_appended(path, judgement.entry)
    return judgement


def recorded(path: Path, scorecard_sha256: str) -> Entry | None:
    """The entry recording that scorecard, if any (checked before a costly verification)."""
    return load_ledger(path).find(scorecard_sha256)


def _utc_now() -> datetime:
    return datetime.now(UTC)


def _write_appended(path: Path, entry: Entry) -> None:
    old = path.read_bytes() if path.exists() else b""
    tmp = path.with_name(f".{path.name}.tmp")
    with open(tmp, "wb") as handle:
        handle.write(old + encode_entry(entry) + b"\n")
        handle.flush()
        os.fsync(handle.fileno())
    tmp.chmod(0o644)
    os.replace(tmp, path)


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[None]:
    if not path.parent.is_dir():
        raise UsageError(f"no directory {path.parent} for the ledger {path.name}")
    with open(path.with_name(f".{path.name}.lock"), "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield
