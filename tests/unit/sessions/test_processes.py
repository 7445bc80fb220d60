"""Freezing and ending a session: by account, every process of the account whatever its group,
session or environment, and nobody else's; by process group, what carries the session's marks.
Real processes, really stopped and killed."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from specsnap.accounts.identity import RunAs, python_for
from specsnap.accounts.pools import agent_account_held
from specsnap.sessions.processes import (
    STOP_WAIT_S,
    SessionMarks,
    account_pids,
    end_account,
    freeze,
    session_pids,
    terminate,
)

needs_root = pytest.mark.skipif(os.geteuid() != 0, reason="containment by account needs root")

# A setsid, cleared-environment, double-forked daemon that keeps appending to a file.
DAEMON = r"""
import os, sys, time
if os.fork():
    sys.exit(0)
os.setsid()
if os.fork():
    os._exit(0)
os.execve(sys.executable, [sys.executable, "-c", '''
import sys, time
with open(sys.argv[1], "a") as out:
    while True:
        out.write("tick\\n"); out.flush(); time.sleep(0.01)
''', sys.argv[1]], {})
"""


@pytest.fixture
def account(tmp_path: Path) -> Iterator[RunAs]:
    with agent_account_held(tmp_path) as account:
        assert not account.is_self, "the agent pool is missing (scripts/setup-accounts.sh)"
        yield account
        end_account(account)


def start_as(
    account: RunAs | None, argv: list[str], env: dict[str, str]
) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        argv,
        env=env,
        start_new_session=True,
        user=account.uid if account else None,
        group=account.gid if account else None,
        extra_groups=[] if account else None,
    )


def state(pid: int) -> str:
    with open(f"/proc/{pid}/stat", "rb") as handle:
        data = handle.read()
    return data[data.rindex(b")") + 2 :].split()[0].decode()


def wait_for(predicate, timeout: float = 10.0) -> bool:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.02)
    return False


# Two threads, each rewriting its own file with large write() calls: a signal stops a thread
# only once its current system call is done.
BIG_WRITER = r"""
import os, sys, threading
def write(path):
    chunk = b"x" * (8 << 20)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    for n in range(1 << 30):
        if n % 8 == 0:
            os.ftruncate(fd, 0)
        os.write(fd, chunk)
threads = [threading.Thread(target=write, args=(p,)) for p in sys.argv[1:]]
for t in threads:
    t.start()
"""


def daemon_log(tmp_path: Path, account: RunAs | None) -> Path:
    tmp_path.mkdir(exist_ok=True)
    log = tmp_path / "daemon.log"
    log.touch()
    if account is not None:
        os.chown(log, account.uid, account.gid)
    return log


@needs_root
def test_an_escaped_daemon_is_frozen_and_ended_with_the_account(
    tmp_path: Path, account: RunAs
) -> None:
    log = daemon_log(tmp_path, account)
    python = python_for(account)
    agent = start_as(account, [python, "-c", DAEMON, str(log)], {"SESSION_ID": "t1"})
    agent.wait()
    assert wait_for(lambda: log.stat().st_size > 0)  # the daemon runs, outside every mark
    marks = SessionMarks(pgid=agent.pid, token="t1", account=account)
    freeze(marks)
    daemons = account_pids(account.uid)
    assert daemons and all(state(pid) == "T" for pid in daemons)
    size = log.stat().st_size
    time.sleep(0.2)
    assert log.stat().st_size == size  # frozen: not one more write
    ended = terminate(marks)
    assert (ended.total, ended.escaped) == (len(daemons), len(daemons))
    assert account_pids(account.uid) == set()


@needs_root
def test_the_sweep_reaches_no_one_else(tmp_path: Path, account: RunAs) -> None:
    bystander = start_as(None, ["sleep", "30"], {})
    try:
        agent = start_as(account, ["sleep", "30"], {})
        assert end_account(account) == 1
        assert agent.wait(timeout=5) == -signal.SIGKILL
        assert bystander.poll() is None and state(bystander.pid) != "T"
    finally:
        bystander.kill()
        bystander.wait()


@needs_root
def test_an_agent_that_signals_everything_it_can_is_still_ended(
    tmp_path: Path, account: RunAs
) -> None:
    # It stops and kills every process its account may signal, SpecSnap's helper included.
    fighter = "while true; do kill -STOP -1; kill -KILL -1; sleep 0.001; done"
    agents = [start_as(account, ["sh", "-c", fighter], {"PATH": "/usr/bin:/bin"})]
    agents += [start_as(account, ["sleep", "30"], {}) for _ in range(3)]
    time.sleep(0.2)
    end_account(account)
    assert account_pids(account.uid) == set()
    for agent in agents:
        agent.wait(timeout=5)


@pytest.mark.parametrize("by_account", [True, False], ids=["account", "process-group"])
def test_nothing_is_written_once_freeze_returns(
    tmp_path: Path, request: pytest.FixtureRequest, by_account: bool
) -> None:
    if by_account and os.geteuid() != 0:
        pytest.skip("containment by account needs root")
    account: RunAs | None = request.getfixturevalue("account") if by_account else None
    outs = [daemon_log(tmp_path / name, account) for name in ("a", "b")]
    python = python_for(account) if account is not None else sys.executable
    for trial in range(5):
        token = f"w{trial}"
        agent = start_as(
            account, [python, "-c", BIG_WRITER, *map(str, outs)], {"SESSION_ID": token}
        )
        try:
            assert wait_for(lambda: all(out.stat().st_size > 0 for out in outs))
            time.sleep(0.01 * trial)
            freeze(SessionMarks(pgid=agent.pid, token=token, account=account))
            sizes = [out.stat().st_size for out in outs]
            time.sleep(0.1)
            assert [out.stat().st_size for out in outs] == sizes, f"trial {trial}"
        finally:
            agent.kill()
            agent.wait()


def test_without_an_account_the_marks_find_a_setsid_child_by_its_token(tmp_path: Path) -> None:
    child = f"setsid {sys.executable} -c 'import time\nwhile True: time.sleep(0.01)' & echo $!"
    agent = subprocess.Popen(
        ["sh", "-c", child],
        env={"SESSION_ID": "t2", "PATH": os.environ["PATH"]},
        start_new_session=True,
        stdout=subprocess.PIPE,
    )
    assert agent.stdout is not None
    pid = int(agent.stdout.readline())
    agent.wait()
    marks = SessionMarks(pgid=agent.pid, token="t2")
    assert marks.containment == "process-group"
    freeze(marks)
    assert wait_for(lambda: state(pid) == "T")
    assert terminate(marks, grace_s=0.2).total == 1
    assert wait_for(lambda: not Path(f"/proc/{pid}").exists() or state(pid) == "Z")


# A process whose child, made with vfork(), stops before it execs: the parent stays in the
# kernel (state D) until the child execs or exits, so no signal can stop it.
VFORK_STOPPED = r"""
#include <signal.h>
#include <unistd.h>
int main(void) {
    if (vfork() == 0) {
        raise(SIGSTOP);
        _exit(0);
    }
    for (;;) pause();
}
"""


def test_a_parent_held_in_vfork_by_its_stopped_child_counts_as_frozen(tmp_path: Path) -> None:
    """What an agent that starts a subprocess at the moment of its edit looks like to the
    freeze (Python's subprocess uses vfork): the freeze returns at once, not after it gave up
    waiting (STOP_WAIT_S), and the session still ends."""
    compiler = shutil.which("cc")
    if compiler is None:
        pytest.skip("no C compiler (cc) to build the vfork program")
    source, program = tmp_path / "vfork.c", tmp_path / "vfork"
    source.write_text(VFORK_STOPPED)
    subprocess.run([compiler, "-o", str(program), str(source)], check=True)
    parent = start_as(None, [str(program)], {"SESSION_ID": "v"})
    try:
        assert wait_for(lambda: state(parent.pid) == "D")
        marks = SessionMarks(pgid=parent.pid, token="v")
        started = time.monotonic()
        freeze(marks)
        assert time.monotonic() - started < STOP_WAIT_S / 2
        child = next(pid for pid in session_pids(marks) if pid != parent.pid)
        assert state(child) == "T"
        assert terminate(marks).total >= 2
        assert parent.wait(timeout=5) is not None
        assert wait_for(lambda: child not in session_pids(marks))
    finally:
        parent.kill()
        parent.wait()
