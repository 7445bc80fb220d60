"""Fixtures of the Docker tests: the engine and the images (tests/support/docker_engine.py)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.support import docker_engine


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
