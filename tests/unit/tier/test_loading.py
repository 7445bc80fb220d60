"""Tier loading: schema errors are all reported at once, with file, key, value and expectation."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml

from specsnap.errors import InputError, UsageError
from specsnap.tier.loading import load_tier, resolve_tier_dir
from specsnap.tier.wiring import load_wiring
from tests.conftest import FIXTURE_TIERS


def broken_copy(tmp_path: Path, edit) -> Path:  # type: ignore[no-untyped-def]
    root = tmp_path / "tier-90"
    shutil.copytree(FIXTURE_TIERS / "tier-90", root)
    data = yaml.safe_load((root / "tier.yaml").read_text())
    edit(data)
    (root / "tier.yaml").write_text(yaml.safe_dump(data))
    return root


def test_every_problem_is_reported_at_once(tmp_path: Path) -> None:
    def edit(data: dict) -> None:  # type: ignore[type-arg]
        data["sessions"] = "two"
        data["requirements"][0]["id"] = "unit one"
        del data["budget_tokens"]
        data["cutoff"]["arm"] = "whenever"
        data["colour"] = "blue"

    root = broken_copy(tmp_path, edit)
    with pytest.raises(InputError) as info:
        load_tier(str(root))
    problems = {p.key: p for p in info.value.problems}
    assert set(problems) >= {"sessions", "requirements.0.id", "(top level)", "cutoff.arm"}
    assert all(p.file == str(root / "tier.yaml") for p in problems.values())
    assert problems["sessions"].value == '"two"'
    assert "integer" in problems["sessions"].expected
    assert "session_start" in problems["cutoff.arm"].expected
    message = str(info.value)
    assert "budget_tokens" in message and "colour" in message


def test_semantic_problems_name_the_key(tmp_path: Path) -> None:
    def edit(data: dict) -> None:  # type: ignore[type-arg]
        data["requirements"][1]["tests"].append("test_missing.py::test_x")
        data["requirements"][1]["depends_on"] = ["NOPE-1"]
        data["id"] = "tier-91"

    with pytest.raises(InputError) as info:
        load_tier(str(broken_copy(tmp_path, edit)))
    keys = {p.key for p in info.value.problems}
    assert keys == {"id", "requirements.1.tests.2", "requirements.1.depends_on"}


def test_invalid_yaml_names_the_line(tmp_path: Path) -> None:
    root = broken_copy(tmp_path, lambda d: None)
    (root / "tier.yaml").write_text("id: [unclosed\n")
    with pytest.raises(InputError, match="line"):
        load_tier(str(root))


def test_tier_reference_forms(fixture_tiers: Path) -> None:
    assert resolve_tier_dir("90") == resolve_tier_dir("tier-90") == fixture_tiers / "tier-90"
    with pytest.raises(UsageError, match="known tiers: tier-90"):
        resolve_tier_dir("7")


def test_wiring_errors_name_file_and_key(tmp_path: Path) -> None:
    path = tmp_path / "wiring.yaml"
    path.write_text("packages:\n  a: {may_import: [b]}\nprivate: [c.x]\n")
    with pytest.raises(InputError) as info:
        load_wiring(path)
    assert {p.key for p in info.value.problems} == {"packages.a.may_import", "private.0"}


def test_stage2_material_problems_name_their_keys(tmp_path: Path) -> None:
    def edit(data: dict) -> None:  # type: ignore[type-arg]
        stage2 = data["stage2"]
        stage2["regression"]["root_cause"] = "stage2/missing.patch"
        stage2["regression"]["hidden_tests"].append("test_unit_1.py::test_pounds")
        stage2["regression"]["catches"] = ["tests/test_gone.py::test_x"]
        stage2["refactor"]["moves"] = {"report/nope.py": "report/lines.py"}

    with pytest.raises(InputError) as info:
        load_tier(str(broken_copy(tmp_path, edit)))
    problems = {(p.key, p.value) for p in info.value.problems}
    assert problems == {
        ("stage2.regression.root_cause", '"stage2/missing.patch"'),
        ("stage2.regression.hidden_tests.2", '"test_unit_1.py::test_pounds"'),
        ("stage2.regression.catches.0", '"tests/test_gone.py::test_x"'),
        ("stage2.refactor.moves.report/nope.py", '"report/nope.py"'),
        ("stage2.refactor.moves.report/nope.py", '"report/lines.py"'),
    }


def test_stage2_material_is_checked_against_the_schema(tmp_path: Path) -> None:
    def edit(data: dict) -> None:  # type: ignore[type-arg]
        del data["stage2"]["refactor"]["moves"]
        data["stage2"]["regression"]["catches"] = []

    with pytest.raises(InputError) as info:
        load_tier(str(broken_copy(tmp_path, edit)))
    keys = {p.key for p in info.value.problems}
    assert keys == {"stage2.refactor", "stage2.regression.catches"}
