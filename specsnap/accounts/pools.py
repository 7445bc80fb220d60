"""Pools of unprivileged accounts, claimed for the length of one job.

Untrusted code is contained by the account it runs as: at the end of its job every process of
that account is killed (`kill(-1)` from the account itself). So two jobs on one machine must never
share an account. A job claims accounts from a pool with an exclusive lock (flock) per account,
held as long as the job runs; the lock dies with the process that holds it, so a crashed job
frees its accounts. The pools are created by scripts/setup-accounts.sh.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import pwd
import time
from collections.abc import Iterator
from pathlib import Path

from specsnap.accounts.identity import RunAs
from specsnap.errors import InfrastructureError

LOCK_DIR = Path("/run/specsnap/accounts")


def pool(variable: str, default: str, size: int) -> list[str]:
    """Account names of a pool: $variable (comma-separated), else default0..default{size-1}."""
    names = os.environ.get(variable, "")
    if names.strip():
        return [n.strip() for n in names.split(",") if n.strip()]
    return [f"{default}{i}" for i in range(size)]


@contextlib.contextmanager
def claim(
    names: list[str], count: int, purpose: str, wait_s: float = 600.0
) -> Iterator[list[RunAs]]:
    """Claim `count` existing, unclaimed accounts of `names` until the block ends.

    When other jobs hold them, wait for them (up to `wait_s`): a busy machine is not a failure.
    """
    LOCK_DIR.mkdir(parents=True, exist_ok=True)
    LOCK_DIR.chmod(0o700)
    existing = []
    for name in names:
        try:
            entry = pwd.getpwnam(name)
        except KeyError:
            continue
        existing.append(RunAs(entry.pw_uid, entry.pw_gid, entry.pw_name))
    if len(existing) < count:
        raise InfrastructureError(
            f"{purpose} needs {count} account(s) of {', '.join(names)}, and only "
            f"{len(existing)} exist; create them with scripts/setup-accounts.sh"
        )
    held: list[tuple[int, RunAs]] = []
    deadline = time.monotonic() + wait_s
    try:
        while True:
            for account in existing:
                if len(held) == count:
                    break
                fd = os.open(LOCK_DIR / f"{account.name}.lock", os.O_CREAT | os.O_RDWR, 0o600)
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except BlockingIOError:
                    os.close(fd)
                    continue
                held.append((fd, account))
            if len(held) == count:
                break
            for fd, _ in held:  # all or nothing: two waiting jobs never hold half each
                os.close(fd)
            held = []
            if time.monotonic() > deadline:
                raise InfrastructureError(
                    f"{purpose} waited {wait_s:.0f}s for {count} free account(s) of "
                    f"{', '.join(names)}; other runs hold them"
                )
            time.sleep(0.2)
        yield [account for _, account in held]
    finally:
        for fd, _ in held:
            os.close(fd)
