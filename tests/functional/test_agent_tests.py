"""The agent's own tests, through a whole `specsnap run` on tier 2 (nine requirements): an agent
whose tests cover exactly three requirements is credited with those three; an honest control
whose tests pass everywhere with none; an agent whose "tests" try to read SpecSnap's records
and hang gets no credit, or a measurement that says why there is none, and grading goes on
unchanged. Each agent commits tests only, so every primary score is the starter's."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.functional.cli import specsnap

pytestmark = pytest.mark.slow

#: Session 1 is cut off at its first source edit: the agent writes only in session 2.
AGENT = """
import pathlib, subprocess, sys
prompt = pathlib.Path(sys.argv[1]).read_text()
if not prompt.startswith("Continue"):
    raise SystemExit(0)
FILES = {files!r}
for name, text in FILES.items():
    path = pathlib.Path(name)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text.replace("RUN_DIR", str(pathlib.Path.cwd().parent)))
subprocess.run(["git", "add", "-A"], check=True)
subprocess.run(["git", "commit", "-q", "-m", "tests for the sprint"], check=True)
"""

#: Exactly CAT-1, ORD-2 and SHIP-3: names the sprint fixes whatever the seed draws.
COVERING = {
    "tests/test_sprint.py": """
from catalog import Product

def test_an_invalid_gtin_is_its_own_error():
    from catalog import InvalidGtinError, InvalidProductError
    assert issubclass(InvalidGtinError, InvalidProductError)

def test_orders_can_wait_on_hold():
    from orders import OrderStatus
    assert OrderStatus.ON_HOLD.value == "on_hold"

def test_the_catalogue_still_works():
    assert Product is not None
""",
    "tests/test_tracking.py": """
from shipping import tracking_number

def test_tracking_numbers_carry_an_s10_check_digit():
    assert tracking_number("PARCELCO", 47312482) == "PC473124829DE"
""",
}

#: Tests that pass with or without any requirement: nothing to credit.
WEAK = {
    "tests/test_weak.py": """
import catalog

def test_it_imports():
    assert catalog

def test_arithmetic():
    assert 1 + 1 == 2
""",
}

#: Reads SpecSnap's own records and the judge's copy of the hidden tests, and hangs.
ESCAPING = {
    "tests/test_escape.py": """
import os, time

def test_reads_the_run_records():
    assert open("RUN_DIR/run.json").read()

def test_reads_the_hidden_tests():
    assert os.listdir("/var/lib/specsnap/judge")

def test_hangs():
    time.sleep(3600)
""",
}

#: Hangs while pytest collects it: the run of the agent's tests never finishes.
HANGING = {"tests/test_hang.py": "import time\ntime.sleep(3600)\n\ndef test_never():\n    pass\n"}


def run(tmp_path: Path, files: dict[str, str], verify: bool = False) -> tuple[dict[str, Any], str]:
    """work.json's agent_tests and scorecard.md, after checking the scorecard shows them, the
    scores are the starter's, and (`verify`) that `verify --run` rebuilds it from work.json."""
    script = tmp_path / "agent.py"
    script.write_text(AGENT.format(files=files))
    script.chmod(0o644)
    out = tmp_path / "run"
    agent = f"cmd=python3 {script} {{prompt_file}}"
    proc = specsnap(
        "run",
        "--tier",
        "2",
        "--seed",
        "3",
        "--agent",
        "command",
        "--agent-opt",
        agent,
        "--out",
        str(out),
    )
    assert proc.returncode == 1, proc.stdout + proc.stderr
    work: dict[str, Any] = json.loads((out / "work.json").read_text())
    card: dict[str, Any] = json.loads((out / "scorecard.json").read_text())
    assert card["scores"]["raw_retention"] == 0.0
    assert card["gate"]["holds"] is True, card["gate"]
    assert card["work"]["agent_tests"]["credited"] == work["agent_tests"]["credited"]
    if verify:
        verified = specsnap("verify", str(out / "scorecard.json"), "--run", str(out))
        assert verified.returncode == 0, verified.stdout + verified.stderr
        assert "ok   rebuild: identical but for timings" in verified.stdout.splitlines()
    return work["agent_tests"], (out / "scorecard.md").read_text()


def test_tests_covering_three_requirements_are_credited_with_exactly_those(
    tmp_path: Path,
) -> None:
    tests, shown = run(tmp_path, COVERING, verify=True)
    assert tests["credited"] == ["CAT-1", "ORD-2", "SHIP-3"]
    assert tests["files"] == ["tests/test_sprint.py", "tests/test_tracking.py"]
    assert (tests["tests"], tests["passed_with_all"], tests["why"]) == (4, 4, None)
    by_id = {r["id"]: r for r in tests["requirements"]}
    assert len(by_id) == 9
    assert by_id["SHIP-3"]["tests"] == [
        "tests/test_tracking.py::test_tracking_numbers_carry_an_s10_check_digit"
    ]
    assert by_id["CAT-1"]["tests"] == [
        "tests/test_sprint.py::test_an_invalid_gtin_is_its_own_error"
    ]
    assert not by_id["INV-1"]["tested"] and by_id["INV-1"]["tests"] == []
    assert (
        "- agent's tests: 4 tests in 2 files test 3 of 9 requirements (`CAT-1`, `ORD-2`, `SHIP-3`)"
        in shown
    )


def test_tests_that_pass_everywhere_credit_nothing(tmp_path: Path) -> None:
    tests, _ = run(tmp_path, WEAK)
    assert tests["credited"] == []
    assert (tests["tests"], tests["passed_with_all"], tests["why"]) == (2, 2, None)
    assert [r["tested"] for r in tests["requirements"]] == [False] * 9


def test_tests_that_escape_or_hang_get_no_credit_and_grading_goes_on(tmp_path: Path) -> None:
    tests, _ = run(tmp_path, ESCAPING)
    assert tests["credited"] == []
    assert (tests["tests"], tests["passed_with_all"]) == (3, 0)
    assert tests["why"] == "none of the agent's tests passed with every reference in place"


@pytest.mark.soak  # 30 s of hanging by design; the hang inside a test is in the default run
def test_tests_that_hang_at_collection_are_not_measured(tmp_path: Path) -> None:
    tests, _ = run(tmp_path, HANGING)
    assert tests["credited"] == []
    assert tests["why"].startswith("not measured: the agent's tests ran over 30 s")
