"""Who untrusted code runs as: unprivileged accounts when SpecSnap is root, else ourselves.

When SpecSnap runs as root (the Action's container), each run's agent sessions execute as an
account of the agent pool (`dev0`..`dev7`, created by scripts/setup-accounts.sh; one run per
account at a time, see specsnap.runs), and graded code runs as accounts of the grading pool
(`specsnap-subject0`..`11`, see specsnap.grading.isolation), which no agent ever runs as. None
of them can read the tier's grader or solution nor any session record. Run as an ordinary user,
SpecSnap cannot separate them, and the scorecard says so (`isolation: same-user`).
"""

from __future__ import annotations

import os
import pwd
import shutil
import stat
import sys
from dataclasses import dataclass
from pathlib import Path


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


def account_named(name: str) -> RunAs | None:
    """The account `name`, or None if it does not exist or is root."""
    try:
        entry = pwd.getpwnam(name)
    except KeyError:
        return None
    return None if entry.pw_uid == 0 else RunAs(entry.pw_uid, entry.pw_gid, entry.pw_name)


def current_user() -> RunAs:
    return RunAs(os.geteuid(), os.getegid(), pwd.getpwuid(os.geteuid()).pw_name)


def anyone() -> RunAs:
    """An account that is not ours (as root: any other), for "could anyone run this" checks."""
    if os.geteuid() != 0:
        return current_user()
    return RunAs(65534, 65534, "nobody")


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
    """Make `path` (recursively) owned by `run_as`, so untrusted code may write there.

    Only what root owns is handed over, and never a file with more than one hard link: its
    other name may be outside `path`, so handing it over could hand over a file SpecSnap never
    meant to give.
    """
    if not run_as.is_self:
        _chown_tree(path, owned_by=0, to=run_as, skip_linked=True)


def take_back(path: Path, run_as: RunAs) -> None:
    """Make everything under `path` that `run_as` owns owned by root again."""
    if not run_as.is_self:
        _chown_tree(path, owned_by=run_as.uid, to=None, skip_linked=False)


def _chown_tree(path: Path, owned_by: int, to: RunAs | None, skip_linked: bool) -> None:
    uid, gid = (to.uid, to.gid) if to is not None else (0, 0)
    for root, dirs, files in os.walk(path):
        for name in [root, *(os.path.join(root, n) for n in dirs + files)]:
            info = os.lstat(name)
            if info.st_uid != owned_by:
                continue
            if skip_linked and stat.S_ISREG(info.st_mode) and info.st_nlink > 1:
                continue
            os.lchown(name, uid, gid)
