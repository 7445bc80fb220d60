"""Installing the agent under test from its repository: as its own account, into its own prefix.

    PREFIX/venv/         a Python venv (the system's Python, never SpecSnap's): `pip install .`
    PREFIX/npm/          npm's global prefix: `npm install -g .`
    PREFIX/src/          a copy of the repository the command runs in (editable installs point here)
    PREFIX/agent.json    what was installed, for the sessions that follow (written by root)

The command runs as the run's agent account, which cannot read the tier (hidden tests, reference
solution, later amendments) nor any run record, with a fresh HOME and only the package managers'
network settings of the environment (no API key); never as root (refused). When SpecSnap itself
is not root, that account is SpecSnap's own user, which can read the tier: such a scorecard is
unofficial anyway, and says why (specsnap.accounts.identity.isolation_problems). Afterwards every
process of the account is ended, and the prefix is handed to root with no write bit for anyone
else: the agent executes what it installed, but a session can neither change it nor leave
anything in it for the next.
"""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from specsnap.accounts.identity import RunAs, account_named, give_to, take_back
from specsnap.agents.base import BASE_PATH
from specsnap.errors import InfrastructureError, UsageError
from specsnap.sessions.processes import end_account

MANIFEST = "agent.json"
#: Package managers' settings that reach the install command (mirrors, proxies, certificates).
SETTING_PREFIXES = ("PIP_", "NPM_CONFIG_", "npm_config_")
SETTINGS = (
    "http_proxy",
    "https_proxy",
    "no_proxy",
    "HTTP_PROXY",
    "HTTPS_PROXY",
    "NO_PROXY",
    "REQUESTS_CA_BUNDLE",
    "SSL_CERT_FILE",
    "NODE_EXTRA_CA_CERTS",
)
#: Never copied into the prefix: SpecSnap's own run directories live in the workspace.
NOT_COPIED = (".specsnap",)


class InstallError(InfrastructureError):
    """The agent's install command failed (its output is in the log above the error)."""


@dataclass(frozen=True)
class AgentEnv:
    """An installed agent environment."""

    prefix: Path
    account: str  # the account it was installed as, and whose sessions use it ("" = ourselves)

    @property
    def python(self) -> Path:
        return self.prefix / "venv" / "bin" / "python"

    @property
    def bin_dirs(self) -> tuple[Path, ...]:
        return (self.prefix / "venv" / "bin", self.prefix / "npm" / "bin")

    def run_as(self) -> RunAs | None:
        """The account its code runs as; None when that is SpecSnap's own user."""
        if not self.account:
            return None
        found = account_named(self.account)
        if found is None:
            raise InfrastructureError(f"the agent account {self.account!r} no longer exists")
        return found


def install_agent(
    command: str, source: Path, account: RunAs, prefix: Path, log: TextIO | None = None
) -> AgentEnv:
    """Run `command` in a copy of `source` as `account`, installing into the empty directory
    `prefix` (which every account can reach)."""
    out = log or sys.stdout
    if account.uid == 0:
        # Root reads everything: the tier's hidden tests, its solution, other runs' records.
        raise UsageError(
            "the agent is never installed as root; SpecSnap (as root) installs it as the run's "
            "agent account (scripts/setup-accounts.sh creates them)"
        )
    if any(prefix.iterdir()):
        raise UsageError(f"{prefix} is not empty: the agent is installed into a fresh prefix")
    prefix.chmod(0o755)
    subprocess.run([system_python(), "-m", "venv", str(prefix / "venv")], check=True)
    (prefix / "npm").mkdir()
    (prefix / "home").mkdir(mode=0o700)
    shutil.copytree(
        source, prefix / "src", symlinks=True, ignore=shutil.ignore_patterns(*NOT_COPIED)
    )
    give_to(prefix, account)
    out.flush()
    done = subprocess.run(
        ["bash", "-euo", "pipefail", "-c", command],
        cwd=prefix / "src",
        env=install_environment(prefix, os.environ),
        stdin=subprocess.DEVNULL,
        stdout=out.fileno() if _has_fileno(out) else None,
        stderr=subprocess.STDOUT,
        start_new_session=True,
        check=False,
        user=None if account.is_self else account.uid,
        group=None if account.is_self else account.gid,
        extra_groups=None if account.is_self else [],
    )
    if not account.is_self:
        end_account(account)  # nothing the install started outlives it
    take_back(prefix, account)
    shutil.rmtree(prefix / "home", ignore_errors=True)
    seal(prefix)
    if done.returncode != 0:
        raise InstallError(
            f"agent_install exited with {done.returncode}; its output is in the log above"
        )
    env = AgentEnv(prefix, "" if account.is_self else account.name)
    (prefix / MANIFEST).write_text(json.dumps({"account": env.account}) + "\n", encoding="utf-8")
    return env


def load_agent_env(prefix: Path) -> AgentEnv:
    """The environment `install_agent` left in `prefix`."""
    try:
        data = json.loads((prefix / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise UsageError(f"{prefix} holds no installed agent ({MANIFEST}: {exc})") from None
    return AgentEnv(prefix, str(data.get("account", "")))


def install_environment(prefix: Path, environ: Mapping[str, str]) -> dict[str, str]:
    """The install command's environment: its prefix first on PATH, a fresh HOME, and the
    package managers' settings from `environ`; nothing else (no API key, no GitHub token)."""
    env = {
        name: value
        for name, value in environ.items()
        if name in SETTINGS or name.startswith(SETTING_PREFIXES)
    }
    env.update(
        PATH=agent_path(AgentEnv(prefix, "")),
        HOME=str(prefix / "home"),
        VIRTUAL_ENV=str(prefix / "venv"),
        NPM_CONFIG_PREFIX=str(prefix / "npm"),
        npm_config_cache=str(prefix / "home" / ".npm"),
        LANG="C.UTF-8",
        SPECSNAP_AGENT_PREFIX=str(prefix),
    )
    return env


def agent_path(env: AgentEnv | None) -> str:
    """The PATH an agent's session gets: its own environment's directories, then the system's.
    SpecSnap's own venv (whose pytest grades) is never on it."""
    own = [str(d) for d in env.bin_dirs] if env is not None else []
    return ":".join([*own, BASE_PATH])


def system_python() -> str:
    """The system's Python 3, not the one SpecSnap runs in (whose venv holds the grader)."""
    found = shutil.which("python3", path=BASE_PATH)
    if found is None:
        raise InfrastructureError(f"no python3 on {BASE_PATH} to create the agent's venv with")
    return found


def seal(prefix: Path) -> None:
    """No write bit for group or others, and no set-id bit, anywhere under `prefix` (root's)."""
    strip = stat.S_IWGRP | stat.S_IWOTH | stat.S_ISUID | stat.S_ISGID
    paths = [prefix]
    for directory, dirnames, filenames in os.walk(prefix):  # symlinks are never followed
        paths += [Path(directory, name) for name in (*dirnames, *filenames)]
    for path in paths:
        info = path.lstat()
        if not stat.S_ISLNK(info.st_mode) and info.st_mode & strip:
            path.chmod(stat.S_IMODE(info.st_mode) & ~strip)


def _has_fileno(stream: TextIO) -> bool:
    try:
        stream.fileno()
    except (OSError, ValueError, AttributeError):
        return False
    return True
