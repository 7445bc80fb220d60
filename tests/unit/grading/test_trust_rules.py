"""The grader's trust rules as pure functions, on the fixture tier (tier-90): what the judge's
report says, the gate, protected files, history rewrites and module boundaries. The functional
tests reach them only through real judge runs; these pin each rule on its own, the bad form and
an honest look-alike side by side."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from specsnap.errors import InfrastructureError
from specsnap.grading import build_gate, history_rewrites, protected_file_changes, testrun
from specsnap.grading.imports import forbidden_files, map_modules, static_violations
from specsnap.grading.testrun import judge_test_run
from specsnap.scorecard.model import BaselineFailure, Breach, ProtectedChange, WiringViolation
from specsnap.tier.model import Tier

HIDDEN = ["test_units.py::test_a", "test_units.py::test_b"]
VISIBLE_OK = {"outcomes": {"tests/test_visible.py::test_x": "passed"}, "exit_code": 0}


def _report(outcomes: dict[str, str], collected: int | None = None) -> str:
    ids = list(outcomes)
    return json.dumps(
        {
            "outcomes": {f"hidden/{k}": v for k, v in outcomes.items()},
            "collected": ids[:collected] if collected is not None else ids,
            "bridge": {"imports": [], "problems": [], "subjects": 2},
        }
    )


def test_a_readable_report_gives_each_expected_test_its_outcome() -> None:
    run = judge_test_run(
        _report({HIDDEN[0]: "passed", HIDDEN[1]: "failed"}), HIDDEN, 1, True, VISIBLE_OK
    )
    assert run.outcomes == {HIDDEN[0]: "passed", HIDDEN[1]: "failed"}
    assert (run.problem, run.visible_problem, run.subjects) == (None, None, 2)


@pytest.mark.parametrize("report", [None, "", "not json", "[]", '{"outcomes": {}}', "null"])
def test_a_report_that_cannot_be_read_never_credits_a_pass(report: str | None) -> None:
    run = judge_test_run(report, HIDDEN, -9, True, VISIBLE_OK)
    assert run.problem == "the judge left no readable report (exit code -9)"
    assert set(run.outcomes.values()) == {"not-collected"}


def test_a_report_missing_a_test_says_it_was_not_collected() -> None:
    report = json.dumps(
        {
            "outcomes": {f"hidden/{HIDDEN[0]}": "passed"},
            "collected": HIDDEN,
            "bridge": {},
        }
    )
    run = judge_test_run(report, HIDDEN, 1, True, VISIBLE_OK)
    assert run.outcomes == {HIDDEN[0]: "passed", HIDDEN[1]: "not-collected"}


def test_a_judge_that_collected_another_number_of_tests_is_specsnaps_fault() -> None:
    report = _report({HIDDEN[0]: "passed", HIDDEN[1]: "passed"}, collected=1)
    with pytest.raises(InfrastructureError, match="collected 1 hidden tests, expected 2"):
        judge_test_run(report, HIDDEN, 0, True, VISIBLE_OK)


@pytest.mark.parametrize(
    ("visible", "problem"),
    [
        (
            {"outcomes": {}, "exit_code": 2, "problem": None},
            "the visible tests' run pytest exited with 2",
        ),
        (
            {"outcomes": {}, "exit_code": 0, "problem": "left no readable report"},
            "the visible tests' run left no readable report",
        ),
        ({"outcomes": {"t": "failed"}, "exit_code": 1, "problem": None}, None),
    ],
)
def test_the_visible_run_fails_as_a_whole_only_when_pytest_did(
    visible: dict[str, Any], problem: str | None
) -> None:
    run = judge_test_run(_report({h: "passed" for h in HIDDEN}), HIDDEN, 0, True, visible)
    assert run.visible_problem == problem


def _clean_run(tier: Tier, **changes: Any) -> testrun.TestRun:
    values: dict[str, Any] = {
        "outcomes": dict.fromkeys(tier.hidden_baseline, "passed"),
        "collected": len(tier.hidden_baseline),
        "expected": len(tier.hidden_baseline),
        "exit_code": 0,
        "problem": None,
        "runtime_imports": [],
        "network_isolated": True,
        "visible": {f"v{i}": "passed" for i in range(tier.visible_count)},
    }
    return testrun.TestRun(**{**values, **changes})


def test_a_clean_run_holds_the_gate(tier90: Tier) -> None:
    gate = build_gate(tier90, _clean_run(tier90), [], [], [])
    assert gate.holds is True
    assert gate.baseline_failures == ()


def test_a_broken_baseline_test_breaks_the_gate_and_is_named(tier90: Tier) -> None:
    first = tier90.hidden_baseline[0]
    run = _clean_run(tier90, outcomes={**_clean_run(tier90).outcomes, first: "failed"})
    gate = build_gate(tier90, run, [], [], [])
    assert (gate.holds, gate.baseline_ok) == (False, False)
    assert gate.baseline_failures == (BaselineFailure(first, "failed"),)


def test_visible_tests_that_did_not_all_run_break_the_gate(tier90: Tier) -> None:
    run = _clean_run(tier90, visible={})
    gate = build_gate(tier90, run, [], [], [])
    assert gate.baseline_failures == (
        BaselineFailure("visible/", f"0 of {tier90.visible_count} ran"),
    )


@pytest.mark.parametrize("which", ["protected", "wiring", "protocol"])
def test_each_condition_alone_breaks_the_gate(tier90: Tier, which: str) -> None:
    protected = [ProtectedChange("wiring.yaml", "modified")] if which == "protected" else []
    violations = (
        [WiringViolation("units", "report", "units/convert.py", 3, "may_import", "static")]
        if which == "wiring"
        else []
    )
    breaches = [Breach(session=1, what="x")] if which == "protocol" else []
    gate = build_gate(tier90, _clean_run(tier90), protected, violations, breaches)
    assert gate.holds is False
    assert getattr(gate, f"{which}_ok") is False
    assert all(
        getattr(gate, f"{k}_ok")
        for k in ("baseline", "protected", "wiring", "protocol")
        if k != which
    )


@pytest.fixture
def export(tier90: Tier, tmp_path: Path) -> Path:
    target = tmp_path / "export"
    shutil.copytree(tier90.starter, target)
    return target


def test_an_untouched_starter_changes_no_protected_file(tier90: Tier, export: Path) -> None:
    (export / "units" / "convert.py").write_text("# an agent's edit of a source file\n")
    (export / "tests" / "test_mine.py").write_text("def test_new(): pass\n")
    assert protected_file_changes(tier90, export) == []


def test_protected_files_changed_deleted_or_replaced_are_each_named(
    tier90: Tier, export: Path
) -> None:
    (export / "wiring.yaml").write_text("packages: {}\n")
    (export / "tests" / "conftest.py").unlink()
    visible = export / "tests" / "test_visible.py"
    visible.unlink()
    visible.symlink_to(tier90.starter / "tests" / "test_visible.py")  # same bytes, a link
    assert protected_file_changes(tier90, export) == [
        ProtectedChange("tests/conftest.py", "deleted"),
        ProtectedChange("tests/test_visible.py", "replaced"),
        ProtectedChange("wiring.yaml", "modified"),
    ]


def _repo(tmp_path: Path) -> Path:
    repo = tmp_path / "repo"
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    return repo


def test_an_ordinary_repository_rewrites_no_history(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    (repo / ".git" / "packed-refs").write_text("0" * 40 + " refs/heads/main\n")
    assert history_rewrites(repo) == []


@pytest.mark.parametrize(
    ("path", "content", "named"),
    [
        ("refs/replace/" + "a" * 40, "b" * 40, "replace refs"),
        ("packed-refs", "0" * 40 + " refs/replace/" + "a" * 40 + "\n", "packed replace refs"),
        ("info/grafts", "a" * 40 + "\n", "grafts"),
        ("objects/info/alternates", "/elsewhere/objects\n", "borrows objects"),
    ],
)
def test_each_way_to_show_other_content_under_a_commit_id_is_a_breach(
    tmp_path: Path, path: str, content: str, named: str
) -> None:
    repo = _repo(tmp_path)
    target = repo / ".git" / path
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(content)
    (found,) = history_rewrites(repo)
    assert named in found.what and found.session is None


def test_a_crossed_boundary_is_found_with_its_file_and_line(tier90: Tier, export: Path) -> None:
    (export / "units" / "convert.py").write_text("import os\n\nfrom report import lines\n")
    modules = map_modules(export, tier90.python_path)
    (found,) = static_violations(tier90.wiring, export, modules)
    assert (found.importer, found.imported, found.file, found.line) == (
        "units.convert",
        "report.lines",
        "units/convert.py",
        3,
    )


def test_imports_wiring_allows_are_no_violation(tier90: Tier, export: Path) -> None:
    (export / "report" / "lines.py").write_text("import json\nfrom units import convert\n")
    modules = map_modules(export, tier90.python_path)
    assert static_violations(tier90.wiring, export, modules) == []


def test_a_private_module_reached_from_outside_its_package_is_a_violation(
    tier90: Tier, export: Path
) -> None:
    (export / "report" / "lines.py").write_text("from units import _table\n")
    modules = map_modules(export, tier90.python_path)
    (found,) = static_violations(tier90.wiring, export, modules)
    assert found.imported == "units._table"


def test_compiled_code_anywhere_in_the_tree_is_a_breach_a_source_is_not(export: Path) -> None:
    (export / "units" / "fast.so").write_bytes(b"\x7fELF")
    (export / "deep" / "dir").mkdir(parents=True)
    (export / "deep" / "dir" / "sitecustomize.py").write_text("")
    (export / "units" / "so_what.py").write_text("")  # a look-alike name, an ordinary source
    found = [f.file for f in forbidden_files(export)]
    assert found == ["deep/dir/sitecustomize.py", "units/fast.so"]
