"""Where graded code runs: the subject account, its network, its /tmp, and ending its processes.

Graded code runs only in subject processes (boot/bridge_subject.py, boot/visible_boot.py), as an
account that is neither the agent's nor the judge's (claimed from the `specsnap-subjectN` pool,
created by scripts/setup-accounts.sh), in new network, IPC and mount namespaces (no network,
no System V IPC object of anyone else's, a private tmpfs over every directory other accounts
may write to, found at start-up: specsnap.accounts.shared_state) where the kernel allows it, with a
scrubbed environment and PYTHONHASHSEED fixed. Where the kernel refuses those namespaces (a
container), each subject's account removes its files and IPC objects from those directories when
the subject ends, and the scorecard says `shared state: owner sweep`.
Run as an ordinary user, SpecSnap cannot switch accounts: subjects then run as that user, in a
user namespace without network where one can be made, and the scorecard says so.
"""

from __future__ import annotations

import os
import pwd
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from specsnap.accounts.identity import RunAs, python_for
from specsnap.accounts.pools import claim, subject_pool
from specsnap.accounts.shared_state import world_writable_dirs

HASH_SEED = "0"
#: Where grading workspaces live when subjects get a private /tmp (which would hide them).
ROOT_WORKSPACES = Path("/var/lib/specsnap/grading")

#: Run inside the subject's own mount namespace before it drops to its account: a private
#: tmpfs over each directory given as an argument before `--`, then the subject's command.
PRIVATE_TMP = (
    'while [ "$1" != -- ]; do '
    'mount -t tmpfs -o mode=1777,size=256m,nosuid,nodev tmpfs "$1" || exit 70; shift; done; '
    'shift; exec "$@"'
)
NAMESPACES = ("unshare", "--net", "--ipc", "--mount", "--", "/bin/sh", "-c", PRIVATE_TMP, "sh")


def namespaces_argv() -> tuple[str, ...]:
    """The prefix that starts a command in new namespaces with every world-writable directory
    replaced by a private tmpfs."""
    return (*NAMESPACES, *world_writable_dirs(), "--")


@dataclass(frozen=True)
class SubjectLauncher:
    """How the judge starts a subject and ends everything it left behind."""

    account: RunAs
    argv: tuple[str, ...]  # prefix: the program and its arguments follow
    python: str
    network_isolated: bool
    sweep_argv: tuple[str, ...] | None  # kills every process of the subject account
    private_tmp: bool = False

    @property
    def isolation(self) -> str:
        return self.account.isolation

    @property
    def shared_state(self) -> str | None:
        """How state a subject leaves outside its workspace is kept from the next one."""
        if self.private_tmp:
            return "private namespaces"
        return "owner sweep" if self.sweep_argv else None

    def judge_entry(self, subject_main: Path) -> dict[str, Any]:
        """How the judge starts a subject of this account (boot/bridge_judge.py reads it)."""
        return {
            "argv": [*self.argv, str(subject_main)],
            "env": self.env(),
            "sweep": list(self.sweep_argv) if self.sweep_argv else None,
            "uid": None if self.account.is_self else self.account.uid,
            "gid": None if self.account.is_self else self.account.gid,
        }

    def env(self) -> dict[str, str]:
        return {
            "PATH": "/usr/local/bin:/usr/bin:/bin",
            "LC_ALL": "C.UTF-8",
            "PYTHONHASHSEED": HASH_SEED,
            "PYTHONDONTWRITEBYTECODE": "1",
            "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1",
            "NO_PROXY": "*",
        }


@dataclass(frozen=True)
class Subjects:
    """The launchers of one grading: two for the judge's subjects (while one account's subject
    runs a requirement's tests, the next requirement's subject starts as the other), and one for
    the visible tests' subject. Each has its own account (as root), so that ending one's
    processes never touches another's."""

    hidden: tuple[SubjectLauncher, SubjectLauncher]
    visible: SubjectLauncher

    @property
    def first(self) -> SubjectLauncher:
        return self.hidden[0]


@contextmanager
def subject_launchers() -> Iterator[Subjects]:
    """Claim the grading's accounts (as root) and build their launchers."""
    if os.geteuid() != 0:
        me = RunAs(os.geteuid(), os.getegid(), pwd.getpwuid(os.geteuid()).pw_name)
        launcher = _launcher(me)
        yield Subjects((launcher, launcher), launcher)
        return
    with claim(subject_pool(), 3, "grading") as (first, second, visible):
        yield Subjects((_launcher(first), _launcher(second)), _launcher(visible))


def _launcher(account: RunAs) -> SubjectLauncher:
    python = python_for(account)
    if _under_private_tmp(python) and _root_namespaces() and not account.is_self:
        python = next((p for p in SYSTEM_PYTHONS if os.path.exists(p)), python)
    flags = ("-P", "-s", "-S", "-B")
    if not account.is_self:
        drop = ("setpriv", f"--reuid={account.uid}", f"--regid={account.gid}", "--clear-groups")
        # kill(-1) from the account itself reaches every process of that account, and no other.
        if _root_namespaces():
            kill_all = (*drop, "--", "/bin/sh", "-c", "kill -KILL -1")
            argv = (*namespaces_argv(), *drop, "--", python, *flags)
            return SubjectLauncher(account, argv, python, True, kill_all, private_tmp=True)
        # No namespace: the account also removes what it left in shared places (its files and
        # IPC objects), running shared_state.py's own sweep as itself.
        source = resources.files("specsnap.accounts").joinpath("shared_state.py").read_text()
        sweep = (*drop, "--", python, "-I", "-S", "-B", "-c", source, *world_writable_dirs())
        return SubjectLauncher(account, (*drop, "--", python, *flags), python, False, sweep)
    if _user_namespaces():
        user_ns = ("unshare", "--user", "--map-root-user", "--net", "--", python, *flags)
        return SubjectLauncher(account, user_ns, python, True, None)
    return SubjectLauncher(account, (python, *flags), python, False, None)


SYSTEM_PYTHONS = ("/usr/local/bin/python3", "/usr/bin/python3")


def _under_private_tmp(path: str) -> bool:
    """Whether a subject with a private /tmp would not see `path` (an interpreter in a venv
    under /tmp, say)."""
    real = os.path.realpath(path)
    return any(real.startswith(d + "/") for d in world_writable_dirs())


@contextmanager
def grading_workspace(launcher: SubjectLauncher) -> Iterator[Path]:
    """A fresh, private scratch directory for one grading, outside any /tmp a subject replaces."""
    base = None
    if launcher.private_tmp:
        ROOT_WORKSPACES.mkdir(parents=True, exist_ok=True)
        ROOT_WORKSPACES.chmod(0o711)
        base = str(ROOT_WORKSPACES)
    with tempfile.TemporaryDirectory(prefix="specsnap-grade-", dir=base) as tmp:
        work = Path(tmp)
        work.chmod(0o711)  # subjects pass through to the export and their scratch only
        yield work


@cache
def _root_namespaces() -> bool:
    return _probe([*namespaces_argv(), "true"])


@cache
def _user_namespaces() -> bool:
    return _probe(["unshare", "--user", "--map-root-user", "--net", "--", "true"])


def _probe(argv: list[str]) -> bool:
    if shutil.which(argv[0]) is None:
        return False
    return subprocess.run(argv, capture_output=True, stdin=subprocess.DEVNULL).returncode == 0
