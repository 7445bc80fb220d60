"""State an account could leave outside the sandbox for a later session or grading to find
(docs/protocol.md, Trust: state outside the sandbox).

Two places outlive a process: directories every account may write to, and System V IPC
objects (shared memory, semaphores, message queues). `world_writable_dirs` finds the first
kind at start-up — every directory another account can reach and write to, not a fixed list —
so subjects can get a private tmpfs over each; `sweep_account` removes what an account owns in
both after each agent session, where no namespace can be made around an agent.

Where subjects get no namespaces (a container without CAP_SYS_ADMIN), each subject's account
sweeps itself when the subject ends: this file, standard library only, runs as that account,

    python -I -S -c "$(cat shared_state.py)" DIR...

and ends every process of the account, then removes what it owns in each DIR and its IPC
objects. It runs with no privilege beyond the account's own.
"""

from __future__ import annotations

import contextlib
import ctypes
import functools
import json
import os
import shutil
import stat
from pathlib import Path

#: Where the scan's result is kept for the rest of the boot (root-only).
CACHE = Path("/run/specsnap/world-writable.json")
#: Pseudo filesystems: nothing there is a directory a file can be left in.
PSEUDO = ("/proc", "/sys")
IPC_KINDS = {"shm": 0, "sem": 1, "msg": 2}  # /proc/sysvipc file -> ctl function
IPC_RMID = 0


@functools.cache
def world_writable_dirs() -> tuple[str, ...]:
    """Every directory an account other than root and its owner can reach and write to, outer
    ones only (what lies below is covered by them), sorted. Read once per boot."""
    boot = _boot_id()
    try:
        cached = json.loads(CACHE.read_text())
        if cached.get("boot") == boot and os.stat(CACHE).st_uid == 0:
            return tuple(cached["dirs"])
    except (OSError, ValueError, KeyError):
        pass
    found = tuple(sorted(_scan("/")))
    if os.geteuid() == 0:
        with contextlib.suppress(OSError):
            CACHE.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            tmp = CACHE.with_suffix(".tmp")
            tmp.write_text(json.dumps({"boot": boot, "dirs": list(found)}))
            tmp.replace(CACHE)
    return found


def _scan(root: str) -> list[str]:
    """Directories searchable by others all the way down, that others may write to."""
    found, stack = [], [root]
    while stack:
        for entry, info in _entries(stack.pop()):
            if entry.path in PSEUDO:
                continue
            if not stat.S_ISDIR(info.st_mode) or not info.st_mode & stat.S_IXOTH:
                continue  # not a directory, or one no other account can enter
            if info.st_mode & stat.S_IWOTH:
                found.append(entry.path)
            else:
                stack.append(entry.path)
    return found


def _entries(directory: str) -> list[tuple[os.DirEntry[str], os.stat_result]]:
    """Each entry of `directory` with its own lstat; what cannot be read is left out."""
    found: list[tuple[os.DirEntry[str], os.stat_result]] = []
    try:
        entries = list(os.scandir(directory))
    except OSError:
        return found
    for entry in entries:
        try:
            found.append((entry, entry.stat(follow_symlinks=False)))
        except OSError:
            continue
    return found


def _boot_id() -> str:
    try:
        return Path("/proc/sys/kernel/random/boot_id").read_text().strip()
    except OSError:
        return ""


def sweep_account(
    uid: int, keep: tuple[Path, ...] = (), dirs: tuple[str, ...] | None = None
) -> list[str]:
    """Remove what `uid` owns in every world-writable directory (or `dirs`), at any depth where
    it could have written (a directory others may write to, or one of its own), but `keep` (the
    run's own directories), and every System V IPC object it owns or created; what was
    removed."""
    removed = []
    kept = {str(path.resolve()) for path in keep}
    stack = list(world_writable_dirs() if dirs is None else dirs)
    while stack:
        for entry, info in _entries(stack.pop()):
            if os.path.realpath(entry.path) in kept:
                continue
            if info.st_uid == uid:
                if stat.S_ISDIR(info.st_mode):
                    shutil.rmtree(entry.path, ignore_errors=True)
                else:
                    with contextlib.suppress(OSError):
                        os.unlink(entry.path)
                removed.append(entry.path)
            elif stat.S_ISDIR(info.st_mode) and info.st_mode & stat.S_IWOTH:
                stack.append(entry.path)
    return removed + sweep_ipc(uid)


def ipc_objects(uid: int) -> list[tuple[str, int]]:
    """(kind, id) of every System V IPC object `uid` owns or created."""
    found = []
    for kind in IPC_KINDS:
        try:
            lines = Path(f"/proc/sysvipc/{kind}").read_text().splitlines()
        except OSError:
            continue
        header = lines[0].split() if lines else []
        for line in lines[1:]:
            fields = dict(zip(header, line.split(), strict=False))
            ident = fields.get("shmid") or fields.get("semid") or fields.get("msqid")
            owners = {fields.get("uid"), fields.get("cuid")}
            if ident is not None and str(uid) in owners:
                found.append((kind, int(ident)))
    return found


def sweep_ipc(uid: int) -> list[str]:
    """Remove every System V IPC object `uid` owns or created (as root, or as `uid`); what was
    removed."""
    libc = ctypes.CDLL(None, use_errno=True)
    calls = {"shm": libc.shmctl, "sem": libc.semctl, "msg": libc.msgctl}
    removed = []
    for kind, ident in ipc_objects(uid):
        args = (ident, 0, IPC_RMID, None) if kind == "sem" else (ident, IPC_RMID, None)
        if calls[kind](*args) == 0:
            removed.append(f"{kind} {ident}")
    return removed


def _sweep_self(dirs: list[str]) -> None:
    """Run as an account: end all its processes but this one, then sweep what it owns."""
    with contextlib.suppress(ProcessLookupError):
        os.kill(-1, 9)  # on Linux, every process this one may signal but itself
    sweep_account(os.getuid(), dirs=tuple(dirs))


if __name__ == "__main__":
    import sys

    _sweep_self(sys.argv[1:])
