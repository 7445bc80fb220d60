"""Pools of unprivileged accounts: one job at a time per account.

Untrusted code is contained by the account it runs as: at the end of its job every process of
that account is killed (`kill(-1)` from the account itself). So two jobs on one machine must never
share an account. The pools are created by scripts/setup-accounts.sh; both keep their locks in
one directory ($SPECSNAP_LEASE_DIR, default /run/specsnap/accounts). Their holders differ, and so
does how a lock outlives them:

- a grading claims subject accounts (`claim`) within one process: an exclusive flock per account,
  held while the claim lasts, dies with the process that holds it, so a crashed job frees them;
- a run holds an agent account (`lease_agent_account`) from prepare until it is graded, across
  processes (the Action runs each step in a fresh container): a lease file NAME.lease names the
  run directory, taken under the pool's lock while the run's record (run.json) is written to name
  the account. The lease is held exactly as long as that record names the account and the run is
  not graded; a run directory removed, even half-way, frees it.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import pwd
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

from specsnap.accounts.identity import RunAs, account_named, current_user
from specsnap.errors import InfrastructureError

DEFAULT_LEASE_DIR = "/run/specsnap/accounts"
#: A run directory's record (specsnap.rundir), which names the agent account the run holds, and
#: its scorecard, written when the run is graded (a graded run holds none).
RUN_RECORD, GRADED = "run.json", "scorecard.json"


def agent_pool() -> tuple[str, ...]:
    """The accounts agent sessions may run as: $SPECSNAP_AGENT_POOL, else dev0..dev7. As root, an
    agent never runs as anything else."""
    return _pool("SPECSNAP_AGENT_POOL", "dev", 8)


def subject_pool() -> tuple[str, ...]:
    """The accounts graded code runs as: $SPECSNAP_SUBJECT_ACCOUNTS, else specsnap-subject0..11
    (three per grading: four gradings at once)."""
    return _pool("SPECSNAP_SUBJECT_ACCOUNTS", "specsnap-subject", 12)


def _pool(variable: str, prefix: str, size: int) -> tuple[str, ...]:
    """A pool's account names, as the machine's set-up chose them (separated by spaces or
    commas), else the names scripts/setup-accounts.sh creates: prefix0..prefix{size-1}."""
    names = os.environ.get(variable, "").replace(",", " ").split()
    return tuple(names) or tuple(f"{prefix}{i}" for i in range(size))


@contextlib.contextmanager
def claim(
    names: Sequence[str], count: int, purpose: str, wait_s: float = 600.0
) -> Iterator[list[RunAs]]:
    """Claim `count` existing, unclaimed accounts of `names` until the block ends.

    When other jobs hold them, wait for them (up to `wait_s`): a busy machine is not a failure.
    """
    locks = _lease_dir()
    locks.mkdir(parents=True, exist_ok=True)
    locks.chmod(0o700)
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
                fd = os.open(locks / f"{account.name}.lock", os.O_CREAT | os.O_RDWR, 0o600)
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


def account_field(account: RunAs) -> str:
    """What run.json records of the agent's account: its name, or "" for SpecSnap's own user."""
    return "" if account.is_self else account.name


def _lease_dir() -> Path:
    return Path(os.environ.get("SPECSNAP_LEASE_DIR") or DEFAULT_LEASE_DIR)


@contextlib.contextmanager
def _pool_locked() -> Iterator[Path]:
    leases = _lease_dir()
    leases.mkdir(mode=0o700, parents=True, exist_ok=True)
    with open(leases / ".leases.lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield leases


def _holder(lease: Path) -> Path | None:
    try:
        return Path(lease.read_text().strip())
    except OSError:
        return None


def _held(lease: Path, name: str) -> bool:
    """Whether the run named in `lease` still holds account `name`."""
    holder = _holder(lease)
    if holder is None or not holder.is_dir() or (holder / GRADED).exists():
        return False
    try:  # prepare writes run.json under the pool's lock as it takes the lease
        return bool(json.loads((holder / RUN_RECORD).read_text()).get("agent_account") == name)
    except (OSError, ValueError, AttributeError):
        return False  # removed (even half-way), or never a run


def lease_agent_account(
    run_dir: Path,
    wanted: str | None = None,
    on_lease: Callable[[RunAs], None] | None = None,
) -> RunAs:
    """The account the run at `run_dir` runs its agent as, leased to it (`wanted`: the account
    run.json records; `on_lease`: called with the account under the pool's lock, to record it).
    Not root: SpecSnap's own user (it cannot switch)."""
    if os.geteuid() != 0:
        user = current_user()
        if on_lease is not None:
            on_lease(user)
        return user
    names = [wanted] if wanted else list(agent_pool())
    accounts = [a for a in map(account_named, names) if a is not None]
    if not accounts:
        raise InfrastructureError(
            f"no agent account exists (looked for {', '.join(names)}): run "
            "scripts/setup-accounts.sh as root, or set SPECSNAP_AGENT_POOL to existing accounts"
        )
    with _pool_locked() as leases:
        busy = []
        for account in accounts:
            lease = leases / f"{account.name}.lease"
            if _holder(lease) == run_dir or not _held(lease, account.name):
                tmp = leases / f".{account.name}.lease.tmp"
                tmp.write_text(f"{run_dir}\n")
                os.replace(tmp, lease)
                if on_lease is not None:
                    on_lease(account)
                return account
            busy.append(f"{account.name} ({_holder(lease)})")
    raise InfrastructureError(f"every agent account is in use by another run: {', '.join(busy)}")


@contextlib.contextmanager
def agent_account_held(holder: Path) -> Iterator[RunAs]:
    """An account of the agent pool for a job that is not a run (a test, a benchmark), leased
    to `holder` for the block: a run.json there records it, as prepare's does, and goes with
    the lease."""

    def record(account: RunAs) -> None:
        (holder / RUN_RECORD).write_text(json.dumps({"agent_account": account_field(account)}))

    try:
        yield lease_agent_account(holder, on_lease=record)
    finally:
        release_agent_account(holder)
        (holder / RUN_RECORD).unlink(missing_ok=True)


def release_agent_account(run_dir: Path) -> None:
    """Give up the lease the run at `run_dir` holds, if any."""
    if os.geteuid() != 0 or not _lease_dir().is_dir():
        return
    with _pool_locked() as leases:
        for lease in leases.glob("*.lease"):
            if _holder(lease) == run_dir:
                lease.unlink(missing_ok=True)
