"""A tier's mutants: every problem in mutants.yaml reported at once; a slip applies exactly once."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from specsnap.errors import InputError
from specsnap.tier.draws import values_for
from specsnap.tier.loading import load_tier
from specsnap.tier.mutants import Mutant, load_mutants, mutate
from specsnap.tier.solutions import build_repository, requirement_patches
from tests.conftest import FIXTURE_TIERS


def tier_copy(tmp_path: Path, mutants: str | None) -> Path:
    root = tmp_path / "tier-90"
    shutil.copytree(FIXTURE_TIERS / "tier-90", root)
    if mutants is None:
        (root / "mutants.yaml").unlink()
    else:
        (root / "mutants.yaml").write_text(mutants)
    return root


def test_the_fixture_tiers_mutants_load_in_file_order() -> None:
    mutants = load_mutants(load_tier(str(FIXTURE_TIERS / "tier-90")))
    assert [m.id for m in mutants][:2] == ["REP-1-exclusive-limit", "REP-1-one-decimal"]
    assert all(m.why for m in mutants)


def test_a_missing_file_bad_entries_and_a_repeated_id_are_clear_errors(tmp_path: Path) -> None:
    with pytest.raises(InputError) as missing:
        load_mutants(load_tier(str(tier_copy(tmp_path / "a", None))))
    assert missing.value.problems[0].value == "missing"

    bad = (
        "- {id: REP-1-x, file: /etc/passwd, find: a, replace: b, why: c}\n"
        "- {id: lower, file: a.py}\n"
    )
    with pytest.raises(InputError) as shape:
        load_mutants(load_tier(str(tier_copy(tmp_path / "b", bad))))
    keys = {p.key for p in shape.value.problems}
    assert {"0.file", "1.id", "1"} <= keys

    twice = "- {id: REP-1-x, file: a.py, find: a, replace: b, why: c}\n" * 2
    with pytest.raises(InputError) as repeated:
        load_mutants(load_tier(str(tier_copy(tmp_path / "c", twice))))
    assert [(p.key, p.value) for p in repeated.value.problems] == [("1.id", "REP-1-x")]


@pytest.fixture
def reference(tmp_path: Path) -> tuple[Path, dict[str, object]]:
    tier = load_tier(str(FIXTURE_TIERS / "tier-90"))
    values = values_for(tier, 0)
    patches = requirement_patches(tier, [r.id for r in tier.requirements])
    return build_repository(tier, tmp_path / "reference", patches, values), values


def test_a_slip_is_rendered_applied_once_and_committed(
    reference: tuple[Path, dict[str, object]], tmp_path: Path
) -> None:
    repo, values = reference
    slip = Mutant(
        "REP-1-x", "report/lines.py", "grams >= ${heavy_from}", "grams > ${heavy_from}", "w"
    )
    assert mutate(repo, tmp_path / "m", slip, values) is None
    text = (tmp_path / "m" / "report" / "lines.py").read_text()
    assert f"grams > {values['heavy_from']}:" in text and ">=" not in text
    assert (repo / "report" / "lines.py").read_text().count(">=") == 1  # the reference is kept
    subject = subprocess.run(
        ["git", "-C", str(tmp_path / "m"), "log", "-1", "--format=%s"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert subject == "Mutant REP-1-x\n"


@pytest.mark.parametrize(
    ("file", "find", "replace", "problem"),
    [
        ("report/none.py", "x", "y", "report/none.py is not a file of the reference repository"),
        (
            "report/lines.py",
            "grams",
            "mass",
            "its find text occurs 7 times in report/lines.py (expected once)",
        ),
        (
            "report/lines.py",
            "absent text",
            "y",
            "its find text occurs 0 times in report/lines.py (expected once)",
        ),
        ("report/lines.py", "grams >= ", "grams >= ", "its replace text is its find text"),
    ],
)
def test_a_slip_that_does_not_apply_says_why(
    reference: tuple[Path, dict[str, object]],
    tmp_path: Path,
    file: str,
    find: str,
    replace: str,
    problem: str,
) -> None:
    repo, values = reference
    assert (
        mutate(repo, tmp_path / "m", Mutant("REP-1-x", file, find, replace, "w"), values) == problem
    )
