"""Grading cannot be fooled by what the agent commits (docs/protocol.md), on the fixture tier."""

from __future__ import annotations

import dataclasses
import os
import socket
from pathlib import Path

import pytest

from specsnap.grading import grade_repository
from specsnap.scorecard.model import Tokens
from specsnap.scorecard.receipt import canonical_json
from specsnap.scorecard.scoring import compute_scores
from specsnap.tier.draws import values_for
from specsnap.tier.model import Tier
from tests.support.repos import commit_all, starter_repo

ALL = ["UNIT-1", "REP-1"]


def scores(tier: Tier, repo: Path):  # type: ignore[no-untyped-def]
    grade = grade_repository(tier, repo, values_for(tier, 0))
    s = compute_scores(
        grade.passed_flags,
        grade.gate.holds,
        [Tokens(source="reported")],
        tier.budget_tokens,
        tier.pass_threshold,
    )
    return grade, s


def test_reference_scores_full_and_starter_scores_zero_with_gate(tier90: Tier, tmp_path: Path):
    grade, s = scores(tier90, starter_repo(tier90, tmp_path / "ref", ALL))
    assert (s.raw_retention, s.net_retention) == (1.0, 1.0)
    grade, s = scores(tier90, starter_repo(tier90, tmp_path / "starter"))
    assert s.raw_retention == 0.0 and grade.gate.holds


def test_only_head_counts_not_the_working_tree(tier90: Tier, tmp_path: Path):
    repo = starter_repo(tier90, tmp_path / "r")
    (repo / "units" / "convert.py").write_text(
        (repo / "units" / "convert.py")
        .read_text()
        .replace('"kg": 1000.0}', '"kg": 1000.0, "lb": 453.59237, "oz": 453.59237 / 16}')
    )
    _, s = scores(tier90, repo)
    assert s.raw_retention == 0.0


def test_broken_baseline_zeroes_net_and_names_the_test(tier90: Tier, tmp_path: Path):
    repo = starter_repo(tier90, tmp_path / "r", ALL)
    convert = repo / "units" / "convert.py"
    convert.write_text(convert.read_text().replace('"g": 1.0', '"g": 1.5'))
    commit_all(repo)
    grade, s = scores(tier90, repo)
    assert s.net_retention == 0.0
    failed = {f.test for f in grade.gate.baseline_failures}
    assert "test_baseline.py::test_grams_identity" in failed


def test_edited_protected_file_zeroes_net(tier90: Tier, tmp_path: Path):
    repo = starter_repo(tier90, tmp_path / "r", ALL)
    (repo / "wiring.yaml").write_text("packages:\n  units: {may_import: [report]}\n")
    (repo / "tests" / "test_visible.py").unlink()
    commit_all(repo)
    grade, s = scores(tier90, repo)
    assert s.net_retention == 0.0 and s.raw_retention == 1.0
    assert {(c.path, c.change) for c in grade.gate.protected_changes} == {
        ("wiring.yaml", "modified"),
        ("tests/test_visible.py", "deleted"),
    }


def test_static_boundary_violation_is_named_with_file_and_line(tier90: Tier, tmp_path: Path):
    repo = starter_repo(tier90, tmp_path / "r", ALL)
    convert = repo / "units" / "convert.py"
    convert.write_text(convert.read_text() + "\n\ndef _later():\n    from report import lines\n")
    commit_all(repo)
    grade, s = scores(tier90, repo)
    assert s.net_retention == 0.0
    (violation,) = grade.gate.wiring_violations
    assert violation.importer == "units.convert"
    assert violation.imported == "report.lines"
    assert violation.file == "units/convert.py"
    assert (
        violation.line == convert.read_text().splitlines().index("    from report import lines") + 1
    )
    assert violation.kind == "static"


def test_private_module_import_is_a_violation(tier90: Tier, tmp_path: Path):
    repo = starter_repo(tier90, tmp_path / "r", ALL)
    lines = repo / "report" / "lines.py"
    lines.write_text("from units._table import SYMBOLS\n" + lines.read_text())
    commit_all(repo)
    grade, _ = scores(tier90, repo)
    assert [v.rule for v in grade.gate.wiring_violations] == ["units._table is private to units"]


def test_runtime_importlib_violation_is_caught(tier90: Tier, tmp_path: Path):
    repo = starter_repo(tier90, tmp_path / "r", ALL)
    convert = repo / "units" / "convert.py"
    convert.write_text(
        convert.read_text().replace(
            "    try:\n        return value * FACTORS[unit]",
            "    import importlib\n    importlib.import_module('rep' + 'ort.lines')\n"
            "    try:\n        return value * FACTORS[unit]",
        )
    )
    commit_all(repo)
    grade, s = scores(tier90, repo)
    assert s.net_retention == 0.0
    kinds = {(v.importer, v.imported, v.kind) for v in grade.gate.wiring_violations}
    # Loading report.lines loads its package first: the subject reports that load as the one
    # units.convert caused (report's own __init__ then imports report.lines itself).
    assert ("units.convert", "report", "dynamic") in kinds
    assert ("units.convert", "?", "static") in kinds  # the computed name itself
    assert all(v.file == "units/convert.py" and v.line > 0 for v in grade.gate.wiring_violations)


def test_dunder_import_violation_is_caught(tier90: Tier, tmp_path: Path):
    repo = starter_repo(tier90, tmp_path / "r", ALL)
    convert = repo / "units" / "convert.py"
    convert.write_text(
        convert.read_text().replace(
            "    try:\n        return value * FACTORS[unit]",
            "    __import__('report')\n    try:\n        return value * FACTORS[unit]",
        )
    )
    commit_all(repo)
    grade, _ = scores(tier90, repo)
    found = {(v.importer, v.imported, v.kind) for v in grade.gate.wiring_violations}
    # A literal name is resolved statically (the subject reports the same load at run time).
    assert ("units.convert", "report", "static") in found


# --- the agent tries to fake its score --------------------------------------------------------

FAKE_PASS_CONFTEST = """
import pytest

@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    report.outcome = "passed"
"""


def _assert_cannot_raise(tier: Tier, repo: Path) -> None:
    commit_all(repo)
    grade, s = scores(tier, repo)
    assert s.raw_retention == 0.0, grade.requirements


def test_committed_conftest_cannot_raise_the_score(tier90: Tier, tmp_path: Path):
    repo = starter_repo(tier90, tmp_path / "r")
    (repo / "conftest.py").write_text(FAKE_PASS_CONFTEST)
    (repo / "tests" / "conftest.py").write_text(FAKE_PASS_CONFTEST)  # also a protected change
    _assert_cannot_raise(tier90, repo)


def test_sitecustomize_and_pth_cannot_raise_the_score(tier90: Tier, tmp_path: Path):
    repo = starter_repo(tier90, tmp_path / "r")
    patch = (
        "import _pytest.reports\n_pytest.reports.TestReport.passed = property(lambda self: True)\n"
    )
    (repo / "sitecustomize.py").write_text(patch)
    (repo / "usercustomize.py").write_text(patch)
    (repo / "evil.pth").write_text("import sitecustomize\n")
    _assert_cannot_raise(tier90, repo)


def test_ini_files_and_addopts_cannot_raise_the_score(tier90: Tier, tmp_path: Path):
    repo = starter_repo(tier90, tmp_path / "r")
    (repo / "plug.py").write_text(FAKE_PASS_CONFTEST)
    (repo / "pytest.ini").write_text("[pytest]\naddopts = -p plug --deselect test_unit_1.py\n")
    (repo / "pyproject.toml").write_text('[tool.pytest.ini_options]\naddopts = "-p plug"\n')
    (repo / "setup.cfg").write_text("[tool:pytest]\naddopts = -p plug\n")
    (repo / "tox.ini").write_text("[pytest]\naddopts = -p plug\n")
    _assert_cannot_raise(tier90, repo)


def test_module_printing_fake_passed_lines_cannot_raise_the_score(tier90: Tier, tmp_path: Path):
    repo = starter_repo(tier90, tmp_path / "r")
    init = repo / "units" / "__init__.py"
    fake = "".join(f"print('{t} PASSED')\n" for r in tier90.requirements for t in r.tests)
    fake += "print('=== 6 passed in 0.01s ===')\n"
    init.write_text(init.read_text() + fake)
    _assert_cannot_raise(tier90, repo)


def test_shadowing_pytest_or_stdlib_modules_does_not_work(tier90: Tier, tmp_path: Path):
    repo = starter_repo(tier90, tmp_path / "r")
    for name in ("pytest.py", "_pytest.py", "json.py", "pluggy.py"):
        (repo / name).write_text("raise SystemExit(0)\n")
    _assert_cannot_raise(tier90, repo)


def test_exiting_the_subject_early_fails_only_what_runs_there(tier90: Tier, tmp_path: Path):
    repo = starter_repo(tier90, tmp_path / "r", ALL)
    init = repo / "report" / "__init__.py"
    init.write_text(init.read_text() + "\nimport os\nos._exit(0)\n")
    commit_all(repo)
    grade, s = scores(tier90, repo)
    # Each requirement has its own subject: UNIT-1 never loads `report` and keeps its result.
    assert [r.id for r in grade.requirements if r.passed] == ["UNIT-1"]
    assert s.net_retention == 0.0 and not grade.gate.baseline_ok


def test_symlink_out_of_the_repository_is_not_followed(tier90: Tier, tmp_path: Path):
    repo = starter_repo(tier90, tmp_path / "r")
    (repo / "units" / "lb.py").symlink_to("/etc/passwd")
    _assert_cannot_raise(tier90, repo)


def test_repository_without_commit_or_git_grades_zero(tier90: Tier, tmp_path: Path):
    repo = starter_repo(tier90, tmp_path / "r", ALL)
    import shutil

    shutil.rmtree(repo / ".git")
    grade, s = scores(tier90, repo)
    assert s.net_retention == 0.0 and grade.head_commit is None
    assert "no commit to grade" in grade.gate.baseline_failures[0].outcome


@pytest.mark.parametrize("namespace", [True, False], ids=["netns", "in-process-guard"])
def test_code_under_test_cannot_reach_the_network(
    tier90: Tier, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, namespace: bool
) -> None:
    from specsnap.grading import isolation

    available = isolation._root_namespaces() if os.geteuid() == 0 else isolation._user_namespaces()
    if namespace and not available:
        pytest.skip("this kernel refuses network namespaces; the guard case still runs")
    monkeypatch.setattr(isolation, "_root_namespaces", lambda: namespace)
    monkeypatch.setattr(isolation, "_user_namespaces", lambda: namespace)
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)
    listener.settimeout(0.2)
    port = listener.getsockname()[1]
    repo = starter_repo(tier90, tmp_path / "r", ALL)
    init = repo / "units" / "__init__.py"
    init.write_text(
        init.read_text() + "\nimport socket\ntry:\n"
        f"    socket.create_connection(('127.0.0.1', {port}), timeout=1)\n"
        "except OSError:\n    pass\n"
        f"try:\n    socket.socket().connect(('127.0.0.1', {port}))\nexcept OSError:\n    pass\n"
    )
    commit_all(repo)
    grade, _ = scores(tier90, repo)
    assert grade.facts.network_isolated is namespace
    with pytest.raises(TimeoutError):
        listener.accept()
    listener.close()


def test_regrading_is_deterministic_for_code_that_iterates_a_set(tier90: Tier, tmp_path: Path):
    # Correct only when the set happens to iterate "lb" first: with a random hash seed per run,
    # UNIT-1 would pass in some gradings and fail in others.
    repo = starter_repo(tier90, tmp_path / "r", ["REP-1"])
    convert = repo / "units" / "convert.py"
    convert.write_text(
        convert.read_text().replace(
            'FACTORS = {"g": 1.0, "kg": 1000.0}',
            'FACTORS = {"g": 1.0, "kg": 1000.0}\n'
            'FACTORS["lb"] = 453.59237 if next(iter({"lb", "oz", "st", "gr"})) == "lb" else 1.0\n'
            'FACTORS["oz"] = FACTORS["lb"] / 16',
        )
    )
    commit_all(repo)
    first = canonical_json(
        dataclasses.asdict(grade_repository(tier90, repo, values_for(tier90, 0)))
    )
    for _ in range(19):
        again = grade_repository(tier90, repo, values_for(tier90, 0))
        assert canonical_json(dataclasses.asdict(again)) == first
