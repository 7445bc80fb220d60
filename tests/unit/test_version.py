"""The version is written in three places that a release must keep equal (docs/release.md)."""

from __future__ import annotations

import tomllib

import yaml

import specsnap
from tests.conftest import ROOT


def test_the_package_pyproject_and_the_actions_image_carry_one_version() -> None:
    version = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    image = yaml.safe_load((ROOT / "action.yml").read_text())["runs"]["image"]
    assert specsnap.__version__ == version
    assert image.endswith(f":v{version}"), image
