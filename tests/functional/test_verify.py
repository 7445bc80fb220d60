"""`specsnap verify`: consistency without the run; with it, a rebuild that catches every edit.

One real run of the fixture tier (notetaker, two sessions, a real cutoff and a real grade); then
forged copies of its scorecard, each edited and sealed again, so the receipt's digest is right
and only the rebuild can tell.
"""

from __future__ import annotations

import json
import shutil
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from specsnap.scorecard.receipt import seal, tier_digest
from tests.conftest import FIXTURE_TIERS
from tests.functional.cli import card, specsnap

Edit = Callable[[dict[str, Any]], None]


@pytest.fixture(scope="module")
def run_dir() -> Iterator[Path]:
    base = Path(tempfile.mkdtemp(prefix="specsnap-verify-", dir="/tmp"))
    base.chmod(0o711)  # the agent account must reach the sandbox
    out = base / "run"
    proc = specsnap(
        "run", "--tier", "90", "--agent", "notetaker", "--out", str(out), tiers=FIXTURE_TIERS
    )
    assert proc.returncode == 0, proc.stderr
    yield out
    shutil.rmtree(base, ignore_errors=True)


def forged(run_dir: Path, tmp_path: Path, edit: Edit, *, reseal: bool = True) -> Path:
    document = card(run_dir)
    edit(document)
    if reseal:
        document["receipt"].pop("scorecard_sha256")
        document = seal(document)
    path = tmp_path / "forged.json"
    path.write_text(json.dumps(document, indent=2))
    return path


def verify(path: Path, run_dir: Path | None = None) -> tuple[int, list[str]]:
    args = ["verify", str(path)] + (["--run", str(run_dir)] if run_dir else [])
    proc = specsnap(*args, tiers=FIXTURE_TIERS)
    assert "Traceback" not in proc.stderr, proc.stderr
    return proc.returncode, proc.stdout.splitlines()


def test_the_engine_scorecard_is_rebuilt_identically(run_dir: Path) -> None:
    code, lines = verify(run_dir / "scorecard.json", run_dir)
    assert code == 0, lines
    assert "ok   rebuild: identical but for timings" in lines
    assert lines[-1] == "Rebuilt from the run's records and a regrade: identical but for timings."


def test_without_the_run_it_says_it_checked_consistency_only(run_dir: Path) -> None:
    code, lines = verify(run_dir / "scorecard.json")
    assert code == 0
    assert lines[-1].startswith(
        "Checked consistency only (the receipt's digest, the tier's digest)"
    )
    assert "not that its result is true" in lines[-1]
    assert not any("rebuild" in line for line in lines[:-1])


def flip_official(document: dict[str, Any]) -> None:
    document["official"] = not document["official"]
    document["unofficial_reasons"] = []


def more_tokens(document: dict[str, Any]) -> None:
    document["sessions"][0]["tokens"]["input"] += 1000


def tidier_ending(document: dict[str, Any]) -> None:
    document["sessions"][0]["exit"]["status"] = "completed"


def lost_requirement(document: dict[str, Any]) -> None:
    requirement = document["requirements"][1]
    requirement["passed"] = False
    requirement["tests"][0]["outcome"] = "failed"


def grading_fact(document: dict[str, Any]) -> None:
    document["grading"]["network_isolated"] = not document["grading"]["network_isolated"]


@pytest.mark.parametrize(
    ("edit", "path"),
    [
        (flip_official, "official"),
        (more_tokens, "sessions[0].tokens.input"),
        (tidier_ending, "sessions[0].exit.status"),
        (lost_requirement, "requirements[1].passed"),
        (grading_fact, "grading.network_isolated"),
    ],
    ids=["official", "token count", "session record field", "requirement", "grading fact"],
)
def test_a_resealed_edit_passes_consistency_and_fails_the_rebuild_at_its_key_path(
    run_dir: Path, tmp_path: Path, edit: Edit, path: str
) -> None:
    forgery = forged(run_dir, tmp_path, edit)
    assert verify(forgery)[0] == 0  # the digest is right: consistency cannot tell
    code, lines = verify(forgery, run_dir)
    assert code == 1
    (rebuild,) = [line for line in lines if "rebuild:" in line]
    assert rebuild.startswith(f"FAIL rebuild: {path}: the scorecard has "), rebuild
    assert lines[-1] == "The scorecard does not match its run."


def test_timings_may_differ(run_dir: Path, tmp_path: Path) -> None:
    def slower(document: dict[str, Any]) -> None:
        document["timings"]["grading_s"] += 60
        document["sessions"][1]["duration_s"] += 60

    code, lines = verify(forged(run_dir, tmp_path, slower), run_dir)
    assert code == 0, lines


def test_an_edit_without_resealing_fails_the_digest(run_dir: Path, tmp_path: Path) -> None:
    code, lines = verify(forged(run_dir, tmp_path, more_tokens, reseal=False))
    assert code == 1
    assert lines[0].startswith("FAIL scorecard_sha256: recomputed ")


def test_a_run_naming_another_tier_directory_is_regraded_with_the_installed_tier(
    run_dir: Path, tmp_path: Path
) -> None:
    """A run from elsewhere (the fork recipe's artifact) names the tier directory its grader
    came from: one with a grader that passes anything. Verify never reads it."""
    evil_tier = tmp_path / "tier-90"
    shutil.copytree(FIXTURE_TIERS / "tier-90", evil_tier)
    for test in (evil_tier / "grader").glob("test_*.py"):
        test.write_text("def test_anything():\n    assert True\n")
    forged_run = tmp_path / "run"
    shutil.copytree(run_dir, forged_run, symlinks=True)
    record = json.loads((forged_run / "run.json").read_text())
    (forged_run / "run.json").write_text(json.dumps({**record, "tier_dir": str(evil_tier)}))
    code, lines = verify(forged_run / "scorecard.json", forged_run)
    assert code == 0, lines  # regraded with the installed tier: the true result, rebuilt
    (tier_line,) = [line for line in lines if "run.tier:" in line]
    assert tier_line.startswith("ok   run.tier: the installed tier-90")
    assert f"the run names {evil_tier}, which is not used" in tier_line

    record["tier_dir"], record["tier_sha256"] = str(evil_tier), tier_digest(evil_tier)
    (forged_run / "run.json").write_text(json.dumps(record))
    code, lines = verify(forged_run / "scorecard.json", forged_run)
    assert code == 1
    (tier_line,) = [line for line in lines if "run.tier:" in line]
    assert tier_line.startswith("FAIL run.tier: the run was made with a tier-90 digesting to ")
    assert not any("rebuild:" in line for line in lines)  # another grader: nothing regraded
