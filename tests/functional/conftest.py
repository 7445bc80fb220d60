"""Fixtures of the functional tests: the Docker engine and the images
(tests/support/docker_engine.py), and tier-2 root-only with the notetaker control's solution of
seed 1, which the real agent CLIs' scripted models play (tests/support/tier2_play.py)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support import docker_engine, tier2_play


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """A Docker engine, shared by every worker that needs it."""
    with docker_engine.engine_in_use(tmp_path_factory):
        yield


@pytest.fixture(scope="module")
def image(engine: None, tmp_path_factory: pytest.TempPathFactory) -> str:
    """The Action's image, built once per test run from a cold cache."""
    return docker_engine.action_image(tmp_path_factory)


@pytest.fixture(scope="module")
def bot_image(image: str, tmp_path_factory: pytest.TempPathFactory) -> str:
    """The bot's image, on the layers the Action's cold build made."""
    return docker_engine.bot_image(tmp_path_factory)


@pytest.fixture(scope="module")
def fresh_machine(image: str, tmp_path_factory: pytest.TempPathFactory) -> str:
    """A fresh Debian machine with Python and git only, on the layers the Action's build made."""
    return docker_engine.fresh_machine_image(tmp_path_factory)


@pytest.fixture(scope="session")
def tiers() -> Iterator[Path]:
    """tier-2 in a root-only directory, as in the Action's container; one per test process."""
    with tier2_play.root_only_tiers() as base:
        yield base


@pytest.fixture(scope="session")
def solution(tiers: Path) -> Iterator[tier2_play.Solution]:
    """tier-2 (seed 1) solved by the notetaker control, once per test process: every agent CLI
    test that plays a whole tier-2 run shares it."""
    with tier2_play.solved(tiers) as solved:
        yield solved
