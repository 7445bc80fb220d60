"""Finding, freezing and ending every process of an agent session.

An agent's processes are found by three marks, any one of which suffices: its process group, its
session id (the agent starts as a session leader), and a per-session token in the environment
that children inherit. A daemon that calls setsid() *and* scrubs its environment escapes all
three; it can then outlive the session, but as a separate account (official runs) it still cannot
read the records or touch the grade, which runs on an export after the session.
"""

from __future__ import annotations

import contextlib
import os
import signal
import time
from dataclasses import dataclass


@dataclass(frozen=True)
class SessionMarks:
    pgid: int
    token: str  # value of SPECSNAP_SESSION in the agent's environment

    @property
    def env_entry(self) -> bytes:
        return f"SPECSNAP_SESSION={self.token}".encode()


def _stat(pid: int) -> tuple[str, int, int] | None:
    """(state, pgrp, session) of `pid` from /proc, or None if it is gone."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            data = handle.read()
    except OSError:
        return None
    fields = data[data.rindex(b")") + 2 :].split()  # the name in (...) may hold spaces
    return fields[0].decode(), int(fields[2]), int(fields[3])


def _has_token(pid: int, entry: bytes) -> bool:
    try:
        with open(f"/proc/{pid}/environ", "rb") as handle:
            return entry in handle.read().split(b"\0")
    except OSError:
        return False


def session_pids(marks: SessionMarks) -> set[int]:
    """Every live process that belongs to the agent session."""
    me = os.getpid()
    found = set()
    for name in os.listdir("/proc"):
        if not name.isdigit() or int(name) == me:
            continue
        pid = int(name)
        stat = _stat(pid)
        if stat is None:
            continue
        _, pgrp, sid = stat
        if pgrp == marks.pgid or sid == marks.pgid or _has_token(pid, marks.env_entry):
            found.add(pid)
    return found


def _signal(pids: set[int], sig: int) -> None:
    for pid in pids:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(pid, sig)


def freeze(marks: SessionMarks) -> int:
    """SIGSTOP the whole session: the group at once, then any process that left the group.

    Returns time.monotonic_ns() right after the group was stopped.
    """
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(marks.pgid, signal.SIGSTOP)
    frozen = time.monotonic_ns()
    _signal(session_pids(marks), signal.SIGSTOP)
    return frozen


def terminate(marks: SessionMarks, grace_s: float = 2.0) -> int:
    """End every process of the session: SIGTERM, a grace period, SIGKILL until none is left.

    Frozen processes are not continued, so nothing the agent does after a cutoff can land; the
    SIGTERM stays pending and SIGKILL ends them. Returns how many processes were ended.
    """
    pids = session_pids(marks)
    ended = set(pids)
    _signal(pids, signal.SIGTERM)
    deadline = time.monotonic() + grace_s
    while pids and time.monotonic() < deadline:
        time.sleep(0.02)
        pids = {p for p in session_pids(marks) if not _is_stopped_or_zombie(p)}
    for _ in range(50):
        pids = {p for p in session_pids(marks) if not _is_zombie(p)}
        if not pids:
            break
        ended |= pids
        _signal(pids, signal.SIGKILL)
        time.sleep(0.02)
    return len(ended)


def _state(pid: int) -> str:
    stat = _stat(pid)
    return "X" if stat is None else stat[0]


def _is_zombie(pid: int) -> bool:
    return _state(pid) in ("Z", "X")


def _is_stopped_or_zombie(pid: int) -> bool:
    return _state(pid) in ("T", "t", "Z", "X")
