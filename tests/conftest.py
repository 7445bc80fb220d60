"""Shared fixtures: the fixture tier directory and helpers that build graded repositories."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from specsnap.accounts.identity import account_named
from specsnap.accounts.pools import agent_pool
from specsnap.tier.loading import load_tier
from specsnap.tier.model import Tier

ROOT = Path(__file__).resolve().parent.parent
FIXTURE_TIERS = ROOT / "tests" / "fixtures" / "tiers"

#: `scripts/test.sh --soak` (SPECSNAP_SOAK=1) runs the long proofs at full size: each shipped
#: tier's validation, every seed of the control sweep, twenty repeats under load. The default run
#: (CI's) leaves the tests marked `soak` out, reported as deselected, and plays the other sweeps
#: at a smaller size (`soak_size`); README.md, Tests, says what each costs.
SOAK = os.environ.get("SPECSNAP_SOAK") == "1"


def soak_size(full: int, default: int) -> int:
    """How many times a sweep plays: `full` under --soak, else `default`."""
    return full if SOAK else default


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Leave out the tests marked `soak` unless the run is a soak (they show as deselected)."""
    if SOAK:
        return
    soaks = [item for item in items if item.get_closest_marker("soak")]
    if soaks:
        config.hook.pytest_deselected(items=soaks)
        items[:] = [item for item in items if not item.get_closest_marker("soak")]


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """Say what a default run leaves out (pytest-xdist does not count deselected tests)."""
    if not SOAK:
        terminalreporter.write_line(
            "the tests marked `soak` were left out: `scripts/test.sh --soak` runs them"
        )


@pytest.fixture(scope="session", autouse=True)
def agent_accounts() -> None:
    """As root, agent sessions run as accounts of the pool: create them once if missing."""
    if os.geteuid() == 0 and any(account_named(name) is None for name in agent_pool()):
        subprocess.run(["bash", str(ROOT / "scripts" / "setup-accounts.sh")], check=True)


def fixture_value(name: str, seed: int = 0) -> object:
    """A value the fixture tier (tier-90) draws for `seed`, for tests that write its solution."""
    from specsnap.tier.draws import values_for

    return values_for(load_tier(FIXTURE_TIERS / "tier-90"), seed)[name]


@pytest.fixture
def fixture_tiers(monkeypatch: pytest.MonkeyPatch) -> Path:
    """Point SpecSnap at the fixture tiers (tier-90) for this test."""
    monkeypatch.setenv("SPECSNAP_TIERS_DIR", str(FIXTURE_TIERS))
    return FIXTURE_TIERS


@pytest.fixture
def tier90(fixture_tiers: Path) -> Tier:
    return load_tier("tier-90")


@pytest.fixture
def tmp_path(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A temporary directory the agent account can reach (pytest's own base is 0700)."""
    path = Path(tempfile.mkdtemp(prefix="specsnap-test-", dir="/tmp"))
    path.chmod(0o711)
    yield path
    if not os.environ.get("SPECSNAP_KEEP_TMP"):
        shutil.rmtree(path, ignore_errors=True)
