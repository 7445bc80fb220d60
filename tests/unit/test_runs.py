"""The agent account pool: one account per run, held from prepare until grading."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from specsnap.errors import InfrastructureError
from specsnap.rundir import RUN_FILE
from specsnap.runs import lease_agent_account, release_agent_account

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="the account pool is used as root only")


@pytest.fixture
def pool(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A pool of two accounts with a lease directory of its own."""
    monkeypatch.setenv("SPECSNAP_AGENT_POOL", "dev6,dev7")
    monkeypatch.setenv("SPECSNAP_LEASE_DIR", str(tmp_path / "leases"))
    return tmp_path


def run_dir(base: Path, name: str) -> Path:
    path = base / name
    path.mkdir()
    return path


def test_parallel_runs_get_distinct_accounts_and_keep_theirs(pool: Path) -> None:
    a, b = run_dir(pool, "a"), run_dir(pool, "b")
    first, second = lease_agent_account(a), lease_agent_account(b)
    assert {first.name, second.name} == {"dev6", "dev7"}
    assert lease_agent_account(a, first.name) == first  # a later step of the same run
    with pytest.raises(InfrastructureError, match="in use by another run"):
        lease_agent_account(run_dir(pool, "c"))
    with pytest.raises(InfrastructureError, match="in use by another run"):
        lease_agent_account(b, first.name)  # run b cannot take run a's account


def test_an_account_is_free_again_once_its_run_is_gone_graded_or_released(pool: Path) -> None:
    a, b = run_dir(pool, "a"), run_dir(pool, "b")
    lease_agent_account(a)
    lease_agent_account(b)
    shutil.rmtree(a)
    assert lease_agent_account(run_dir(pool, "c")).name == "dev6"
    (b / "scorecard.json").write_text("{}")
    assert lease_agent_account(run_dir(pool, "d")).name == "dev7"
    release_agent_account(pool / "c")
    assert lease_agent_account(run_dir(pool, "e")).name == "dev6"


def test_a_run_json_naming_another_account_does_not_hold_it(pool: Path) -> None:
    a = run_dir(pool, "a")
    assert lease_agent_account(a).name == "dev6"
    (a / RUN_FILE).write_text('{"agent_account": "dev7"}')
    assert lease_agent_account(run_dir(pool, "b")).name == "dev6"


def test_missing_accounts_name_the_setup_script(
    pool: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SPECSNAP_AGENT_POOL", "specsnap-no-such-account")
    with pytest.raises(InfrastructureError, match=r"setup-accounts\.sh"):
        lease_agent_account(run_dir(pool, "a"))
