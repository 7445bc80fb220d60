"""Finding, freezing and ending every process of an agent session.

Containment by account (SpecSnap runs as root): the session's agent runs as an account of its
own, so *every* process of that account is the session's, whatever its process group, session
or environment. A helper forked from SpecSnap drops to that account and calls `kill(-1, sig)`,
which reaches every process of the account and nobody else's (the kernel lets a process signal
only those whose real or saved uid is its own). A single `kill(-1, SIGSTOP)` stops them all at
once: the kernel walks the process list under a lock that fork() must also take, and a fork
with a signal pending is restarted, so no child is born unstopped.

Containment by process group (SpecSnap runs as an ordinary user, best effort): an agent's
processes are found by three marks, any one of which suffices: its process group, its session
id (the agent starts as a session leader), and a per-session token in the environment that
children inherit. A daemon that calls setsid() *and* scrubs its environment escapes all three.
"""

from __future__ import annotations

import contextlib
import os
import signal
import time
from collections.abc import Callable
from dataclasses import dataclass

from specsnap.accounts.identity import RunAs
from specsnap.errors import InfrastructureError

SWEEP_ATTEMPTS = 50
STOP_WAIT_S = 5.0  # how long a freeze waits for a thread to leave a system call


#: The environment variable that carries a session's token (a neutral name: nothing in the
#: agent's environment says SpecSnap).
SESSION_VARIABLE = "SESSION_ID"


@dataclass(frozen=True)
class SessionMarks:
    pgid: int
    token: str  # value of SESSION_VARIABLE in the agent's environment
    account: RunAs | None = None  # containment by account: every process of it is the session's

    @property
    def env_entry(self) -> bytes:
        return f"{SESSION_VARIABLE}={self.token}".encode()

    @property
    def containment(self) -> str:
        return "account" if self.account is not None else "process-group"


@dataclass(frozen=True)
class Ended:
    """What ending a session found: every process ended, and those that had left the session
    (a new session and no session token) and were found only through the account."""

    total: int
    escaped: int


def _stat_fields(path: str) -> list[bytes] | None:
    """The fields of a /proc `stat` file after the name (state, ppid, pgrp, session, ...), or
    None if the process or thread is gone."""
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError:
        return None
    return data[data.rindex(b")") + 2 :].split()  # the name in (...) may hold spaces


def _stat(pid: int) -> tuple[str, int, int] | None:
    """(state, pgrp, session) of `pid` from /proc, or None if it is gone."""
    fields = _stat_fields(f"/proc/{pid}/stat")
    return None if fields is None else (fields[0].decode(), int(fields[2]), int(fields[3]))


def _has_token(pid: int, entry: bytes) -> bool:
    try:
        with open(f"/proc/{pid}/environ", "rb") as handle:
            return entry in handle.read().split(b"\0")
    except OSError:
        return False


def _pids() -> list[int]:
    me = os.getpid()
    return [int(name) for name in os.listdir("/proc") if name.isdigit() and int(name) != me]


def session_pids(marks: SessionMarks) -> set[int]:
    """Every live process that carries one of the session's marks."""
    found = set()
    for pid in _pids():
        stat = _stat(pid)
        if stat is None:
            continue
        _, pgrp, sid = stat
        if pgrp == marks.pgid or sid == marks.pgid or _has_token(pid, marks.env_entry):
            found.add(pid)
    return found


def account_pids(uid: int) -> set[int]:
    """Every live (not zombie) process that `kill(-1)` from `uid` reaches: real or saved uid.

    Read from /proc/PID/status, which shows the uids even of a process that made itself
    non-dumpable (its /proc directory then belongs to root).
    """
    found = set()
    for pid in _pids():
        try:
            with open(f"/proc/{pid}/status", "rb") as handle:
                lines = handle.read().splitlines()
        except OSError:
            continue
        fields = {k: v for k, _, v in (line.partition(b":") for line in lines)}
        state = fields.get(b"State", b"").split()[:1]
        uids = fields.get(b"Uid", b"").split()
        if state in ([b"Z"], [b"X"]) or len(uids) < 3:
            continue
        if int(uids[0]) == uid or int(uids[2]) == uid:
            found.add(pid)
    return found


def _signal(pids: set[int], sig: int) -> None:
    for pid in pids:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(pid, sig)


def _as_account(account: RunAs, action: Callable[[], int]) -> bool:
    """Run `action` in a child that has dropped to `account`; whether it finished with 0.

    The child is a process of the account too, so the agent may signal it: one that is stopped
    or killed before it is done just reports failure, and the caller tries again.
    """
    pid = os.fork()
    if pid == 0:  # the child: only system calls from here on, then _exit
        code = 1
        try:
            os.setgroups([])
            os.setresgid(account.gid, account.gid, account.gid)
            os.setresuid(account.uid, account.uid, account.uid)
            code = action()
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, os.WUNTRACED)
    if os.WIFSTOPPED(status):
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        return False
    return os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0


def _stop_all() -> int:
    with contextlib.suppress(ProcessLookupError):
        os.kill(-1, signal.SIGSTOP)
    return 0


def _kill_all(uid: int) -> Callable[[], int]:
    def action() -> int:
        for _ in range(1000):
            for sig in (signal.SIGSTOP, signal.SIGKILL):
                with contextlib.suppress(ProcessLookupError):
                    os.kill(-1, sig)
            if not account_pids(uid):
                return 0
            time.sleep(0.002)  # the killed are still exiting
        return 1

    return action


def stop_account(account: RunAs) -> None:
    """SIGSTOP every process of `account` at once."""
    for _ in range(SWEEP_ATTEMPTS):
        if _as_account(account, _stop_all):
            return


def end_account(account: RunAs) -> int:
    """Stop and kill every process of `account` until /proc shows none; how many there were."""
    found = account_pids(account.uid)
    for _ in range(SWEEP_ATTEMPTS):
        if _as_account(account, _kill_all(account.uid)) and not account_pids(account.uid):
            return len(found)
    raise InfrastructureError(f"processes of the account {account.name} could not be ended")


def freeze(marks: SessionMarks) -> int:
    """SIGSTOP the whole session: the group at once, then the account (or, without one, every
    process that left the group), and wait until every thread of it has stopped.

    A signal stops a thread only on its way back to user space: one inside a system call (a
    large write(), say) finishes that call first, after kill() has returned. The freeze is done
    when /proc shows every thread stopped, so nothing the agent does can change the sandbox
    after it. Returns time.monotonic_ns() at that moment.
    """
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(marks.pgid, signal.SIGSTOP)
    if marks.account is not None:
        stop_account(marks.account)
        uid = marks.account.uid
        await_stopped(lambda: account_pids(uid))
    else:
        _signal(session_pids(marks), signal.SIGSTOP)
        await_stopped(lambda: session_pids(marks))
    return time.monotonic_ns()


def await_stopped(pids: Callable[[], set[int]], limit_s: float = STOP_WAIT_S) -> bool:
    """Wait until every thread of every process `pids()` names is stopped or gone; False if
    one still ran after `limit_s` (a thread stuck in an uninterruptible call)."""
    deadline = time.monotonic() + limit_s
    while True:
        current = pids()
        if all(_all_threads_stopped(pid, current) for pid in current):
            return True
        if time.monotonic() >= deadline:
            return False
        time.sleep(0.0002)


#: Where a thread that called vfork() waits (/proc/.../wchan) until its child execs or exits.
VFORK_WAITS = frozenset({"kernel_clone", "_do_fork", "do_fork", "wait_for_vfork_done"})


def _waits_for_stopped_vfork_child(pid: int, tid: str, pids: set[int]) -> bool:
    """Whether thread `tid` of `pid` is blocked in vfork() on a child that is stopped: it cannot
    return to user space (where its own SIGSTOP takes it) before that child execs or exits,
    and the stopped child does neither, so the thread is as still as a stopped one."""
    try:
        with open(f"/proc/{pid}/task/{tid}/wchan") as handle:
            if handle.read().strip() not in VFORK_WAITS:
                return False
    except OSError:
        return False
    for child in pids:
        fields = _stat_fields(f"/proc/{child}/stat")
        if fields is not None and int(fields[1]) == pid and fields[0] in (b"T", b"t"):
            return True
    return False


def _all_threads_stopped(pid: int, pids: set[int]) -> bool:
    try:
        tids = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return True  # gone
    for tid in tids:
        fields = _stat_fields(f"/proc/{pid}/task/{tid}/stat")
        state = None if fields is None else fields[0]
        if state is None or state in (b"T", b"t", b"Z", b"X"):
            continue
        if state == b"D" and _waits_for_stopped_vfork_child(pid, tid, pids):
            continue
        return False
    return True


def terminate(marks: SessionMarks, grace_s: float = 2.0) -> Ended:
    """End every process of the session.

    By account: stop all, then kill all, with no grace period (a stopped process cannot use one,
    and a running one would use it to write after the session ended). By process group: SIGTERM,
    a grace period, SIGKILL until none is left. Frozen processes are never continued, so nothing
    the agent does after a cutoff can land.
    """
    if marks.account is not None:
        marked = session_pids(marks)
        escaped = account_pids(marks.account.uid) - marked
        stop_account(marks.account)
        total = end_account(marks.account)
        return Ended(total, len(escaped))
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
    return Ended(len(ended), 0)


def _state(pid: int) -> str:
    stat = _stat(pid)
    return "X" if stat is None else stat[0]


def _is_zombie(pid: int) -> bool:
    return _state(pid) in ("Z", "X")


def _is_stopped_or_zombie(pid: int) -> bool:
    return _state(pid) in ("T", "t", "Z", "X")
