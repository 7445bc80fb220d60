"""Installing the agent under test: as its own account, into its own prefix, never as root."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from specsnap.accounts.identity import RunAs
from specsnap.accounts.pools import agent_account_held
from specsnap.agentenv.install import agent_path, install_agent
from specsnap.errors import UsageError

ROOT = Path(__file__).resolve().parents[3]


def test_the_agent_is_never_installed_as_root(tmp_path: Path) -> None:
    prefix = tmp_path / "prefix"
    prefix.mkdir()
    with pytest.raises(UsageError, match="never installed as root"):
        install_agent("touch installed", tmp_path, RunAs(0, 0, "root"), prefix)
    assert list(prefix.iterdir()) == []  # refused before anything ran or was made


@pytest.mark.skipif(os.geteuid() != 0, reason="installing as another account needs root")
def test_the_install_runs_as_the_agent_account_without_secrets_and_is_sealed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Leased like a run's: the install ends every process of its account, and an account no
    # lease holds may be serving a real evaluation on this machine.
    with agent_account_held(tmp_path) as account:
        assert not account.is_self, "scripts/setup-accounts.sh creates the agent pool"
        _install_and_check(tmp_path, monkeypatch, account)


def _install_and_check(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, account: RunAs) -> None:
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-must-not-reach-the-install")
    source = tmp_path / "repo"
    source.mkdir()
    (source / "setup.txt").write_text("the agent's repository\n")
    prefix = tmp_path / "prefix"
    prefix.mkdir()
    command = "id -u > uid.txt; env > env.txt; echo $HOME > home.txt"
    env = install_agent(command, source, account, prefix)
    assert env.account == account.name
    assert (prefix / "src" / "uid.txt").read_text().strip() == str(account.uid)
    seen = (prefix / "src" / "env.txt").read_text()
    assert "sk-ant-must-not-reach-the-install" not in seen and "ANTHROPIC_API_KEY" not in seen
    path = next(line for line in seen.splitlines() if line.startswith("PATH="))
    assert path == f"PATH={agent_path(env)}" and str(ROOT / ".venv") not in path
    assert (prefix / "src" / "home.txt").read_text().strip() == str(prefix / "home")
    assert not (source / "uid.txt").exists()  # it ran in a copy, not in the checkout
    for directory, names, files in os.walk(prefix):
        for name in (directory, *(os.path.join(directory, n) for n in (*names, *files))):
            info = os.lstat(name)
            if stat.S_ISLNK(info.st_mode):
                continue
            assert info.st_uid == 0, name  # handed back to root
            assert not info.st_mode & (stat.S_IWGRP | stat.S_IWOTH), name  # and sealed
