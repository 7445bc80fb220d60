"""The agent account pool: one account per run, held from prepare until grading (leases)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from specsnap.accounts.identity import RunAs
from specsnap.accounts.pools import lease_agent_account, release_agent_account
from specsnap.errors import InfrastructureError
from specsnap.rundir import RUN_FILE

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


def lease(run: Path, wanted: str | None = None) -> RunAs:
    """Lease as prepare does: run.json records the account under the pool's lock."""
    record = (run / RUN_FILE).write_text
    return lease_agent_account(
        run, wanted, on_lease=lambda account: record(f'{{"agent_account": "{account.name}"}}')
    )


def test_parallel_runs_get_distinct_accounts_and_keep_theirs(pool: Path) -> None:
    a, b = run_dir(pool, "a"), run_dir(pool, "b")
    first, second = lease(a), lease(b)
    assert {first.name, second.name} == {"dev6", "dev7"}
    assert lease(a, first.name) == first  # a later step of the same run
    with pytest.raises(InfrastructureError, match="in use by another run"):
        lease(run_dir(pool, "c"))
    with pytest.raises(InfrastructureError, match="in use by another run"):
        lease(b, first.name)  # run b cannot take run a's account


def test_an_account_is_free_again_once_its_run_is_gone_graded_or_released(pool: Path) -> None:
    a, b = run_dir(pool, "a"), run_dir(pool, "b")
    lease(a)
    lease(b)
    shutil.rmtree(a)
    assert lease(run_dir(pool, "c")).name == "dev6"
    (b / "scorecard.json").write_text("{}")
    assert lease(run_dir(pool, "d")).name == "dev7"
    release_agent_account(pool / "c")
    assert lease(run_dir(pool, "e")).name == "dev6"


def test_a_run_json_naming_another_account_does_not_hold_it(pool: Path) -> None:
    a = run_dir(pool, "a")
    assert lease(a).name == "dev6"
    (a / RUN_FILE).write_text('{"agent_account": "dev7"}')
    assert lease(run_dir(pool, "b")).name == "dev6"


def test_a_run_removed_half_way_holds_nothing(pool: Path) -> None:
    """A run directory whose removal stopped part-way (its run.json gone, a sandbox left behind,
    say under a mount) frees its account: the lease lives exactly as long as run.json."""
    a = run_dir(pool, "a")
    assert lease(a).name == "dev6"
    (a / "sandbox").mkdir()
    (a / RUN_FILE).unlink()
    assert lease(run_dir(pool, "b")).name == "dev6"


def test_a_lease_is_recorded_before_anyone_else_can_look(pool: Path) -> None:
    """The account is written to run.json under the pool's lock, so a run that has leased but
    not yet finished preparing still holds it."""
    seen: list[str] = []
    a = run_dir(pool, "a")

    def record(account: RunAs) -> None:
        (a / RUN_FILE).write_text(f'{{"agent_account": "{account.name}"}}')
        seen.append(account.name)

    lease_agent_account(a, on_lease=record)
    assert seen == ["dev6"]
    assert lease(run_dir(pool, "b")).name == "dev7"
    with pytest.raises(InfrastructureError, match="in use by another run"):
        lease(run_dir(pool, "c"))


def test_missing_accounts_name_the_setup_script(
    pool: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SPECSNAP_AGENT_POOL", "specsnap-no-such-account")
    with pytest.raises(InfrastructureError, match=r"setup-accounts\.sh"):
        lease(run_dir(pool, "a"))


def test_a_prepare_that_did_not_finish_is_refused_not_resumed(
    pool: Path, fixture_tiers: Path
) -> None:
    """run.json is written with the lease, before the sandbox: a prepare that stopped there
    left no baseline, so preparing the same directory again is refused and says what to do."""
    from specsnap.errors import UsageError
    from specsnap.rundir import RunSpec, load_run
    from specsnap.runs import prepare_run

    out = run_dir(pool, "run")
    spec = RunSpec("90", 0, "noop")
    made = prepare_run(spec, out)
    assert load_run(out).agent_account == made.agent_account != ""
    (out / RUN_FILE).write_text(
        (out / RUN_FILE).read_text().replace(made.baseline_commit, "")
    )  # as a prepare stopped between the lease and the baseline leaves it
    with pytest.raises(UsageError, match="did not finish; remove it and prepare again"):
        prepare_run(spec, out)
