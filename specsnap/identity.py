"""Who untrusted code runs as: an unprivileged account when SpecSnap is root, else ourselves.

When SpecSnap runs as root (the Action's container), agent sessions and the grader's test runs
execute as the `specsnap` account, which can read neither the tier's grader or solution nor any
session record. Run as an ordinary user, SpecSnap cannot separate the two, and the scorecard says
so (`isolation: same-user`).
"""

from __future__ import annotations

import os
import pwd
import shutil
import stat
import sys
from dataclasses import dataclass
from pathlib import Path

DEFAULT_AGENT_ACCOUNT = "specsnap"


@dataclass(frozen=True)
class RunAs:
    uid: int
    gid: int
    name: str

    @property
    def is_self(self) -> bool:
        return self.uid == os.geteuid()

    @property
    def isolation(self) -> str:
        return "same-user" if self.is_self else "separate-user"


def resolve_run_as(account: str | None = None) -> RunAs:
    """The account for untrusted code: `account`, else $SPECSNAP_AGENT_USER, else `specsnap`.

    Only root can switch; anyone else runs untrusted code as themselves.
    """
    me = RunAs(os.geteuid(), os.getegid(), pwd.getpwuid(os.geteuid()).pw_name)
    if os.geteuid() != 0:
        return me
    name = account or os.environ.get("SPECSNAP_AGENT_USER") or DEFAULT_AGENT_ACCOUNT
    if name in ("", "none", "root"):
        return me
    try:
        entry = pwd.getpwnam(name)
    except KeyError:
        return me
    return RunAs(entry.pw_uid, entry.pw_gid, entry.pw_name)


def can_execute(path: str, run_as: RunAs) -> bool:
    """Whether `run_as` can reach and execute `path` (checked through every parent directory)."""
    if run_as.is_self:
        return os.access(path, os.X_OK)
    real = Path(os.path.realpath(path))
    for part in [*reversed(real.parents), real]:
        info = part.stat()
        need = stat.S_IXOTH
        if info.st_uid == run_as.uid:
            need = stat.S_IXUSR
        elif info.st_gid == run_as.gid:
            need = stat.S_IXGRP
        if not info.st_mode & need:
            return False
    return True


def can_read(path: Path, run_as: RunAs) -> bool:
    """Whether `run_as` could list or read `path` (by the permission bits along the way)."""
    if run_as.is_self:
        return True
    real = Path(os.path.realpath(path))
    for part in [*reversed(real.parents), real]:
        info = part.stat()
        shift = 6 if info.st_uid == run_as.uid else 3 if info.st_gid == run_as.gid else 0
        need = (0o1 if part != real else 0o4) << shift
        if not info.st_mode & need:
            return False
    return True


def isolation_problems(run_as: RunAs, secrets: list[Path]) -> list[str]:
    """Why the agent's account is not isolated from what it must not see; empty when it is."""
    if run_as.is_self:
        return ["the agent ran as SpecSnap's own user, so nothing was hidden from it"]
    return [
        f"the agent's account can read {p}" for p in secrets if p.exists() and can_read(p, run_as)
    ]


def python_for(run_as: RunAs) -> str:
    """A Python interpreter `run_as` can execute: ours if reachable, else the system's."""
    candidates = [sys.executable, "/usr/local/bin/python3", "/usr/bin/python3"]
    found = shutil.which("python3")
    if found:
        candidates.append(found)
    for candidate in candidates:
        if os.path.exists(candidate) and can_execute(candidate, run_as):
            return candidate
    return sys.executable


def give_to(path: Path, run_as: RunAs) -> None:
    """Make `path` (recursively) owned by `run_as`, so untrusted code may write there."""
    if run_as.is_self:
        return
    for root, dirs, files in os.walk(path):
        os.lchown(root, run_as.uid, run_as.gid)
        for name in dirs + files:
            os.lchown(os.path.join(root, name), run_as.uid, run_as.gid)
