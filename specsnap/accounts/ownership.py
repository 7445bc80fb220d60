"""Who owns what SpecSnap writes in a GitHub runner's workspace.

On a runner the workspace and HOME belong to the runner's account (uid 1001 on GitHub's hosted
runners); GitHub's own steps (upload-artifact, a `run:` step's `cp`, the cleanup after the job)
run as that account on the host, while each step of a container action runs as root in a fresh
container. So at the end of every step SpecSnap hands what it wrote to the workspace's owner
(`hand_over`), keeping every mode as it was: the scorecards, the badge and the Markdown are
readable by the runner's steps, and the run's records stay private by their modes (0700/0600),
now to the runner's account, which no agent ever runs as (`check_owner`). At the start of the
next step SpecSnap takes its run directory back (`reclaim`), so inside the step everything is
root's again, as the engine expects.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable, Iterator
from pathlib import Path

from specsnap.accounts.identity import RunAs, account_named
from specsnap.accounts.pools import agent_pool, subject_pool
from specsnap.errors import InfrastructureError


def workspace_owner(workspace: Path) -> RunAs | None:
    """The account owning `workspace`, when SpecSnap (root) must hand files to it; else None."""
    if os.geteuid() != 0 or not workspace.is_dir():
        return None
    info = workspace.stat()
    if info.st_uid == 0:
        return None
    return RunAs(info.st_uid, info.st_gid, str(info.st_uid))


def check_owner(owner: RunAs, untrusted: Iterable[str] = ()) -> None:
    """Refuse a workspace owned by an account that untrusted code runs as: what SpecSnap hands
    over (the run's records) would then be readable by the agent or by graded code."""
    names = [*agent_pool(), *subject_pool(), *untrusted]
    for name in names:
        account = account_named(name)
        if account is not None and account.uid == owner.uid:
            raise InfrastructureError(
                f"the workspace belongs to uid {owner.uid}, which is SpecSnap's account {name}; "
                "run the job as another user, or choose other accounts (SPECSNAP_AGENT_POOL)"
            )


def hand_over(path: Path, owner: RunAs) -> int:
    """Give everything root owns under `path` (itself included) to `owner`; how many entries.

    Symbolic links are changed, never followed; a file with more than one hard link is left as
    it is, since its other name may be outside `path`.
    """
    return _chown_all(path, owned_by=0, to=(owner.uid, owner.gid), skip_linked=True)


def reclaim(path: Path, owner: RunAs) -> int:
    """Make root the owner again of everything under `path` that `owner` owns."""
    return _chown_all(path, owned_by=owner.uid, to=(0, 0), skip_linked=False)


def _chown_all(path: Path, owned_by: int, to: tuple[int, int], skip_linked: bool) -> int:
    changed = 0
    for entry in _entries(path):
        info = entry.lstat()
        if info.st_uid != owned_by:
            continue
        if skip_linked and stat.S_ISREG(info.st_mode) and info.st_nlink > 1:
            continue
        os.lchown(entry, *to)
        changed += 1
    return changed


def _entries(path: Path) -> Iterator[Path]:
    if not path.exists() and not path.is_symlink():
        return
    yield path
    if path.is_symlink() or not path.is_dir():
        return
    for directory, dirnames, filenames in os.walk(path):  # links are never followed
        for name in (*dirnames, *filenames):
            yield Path(directory, name)
