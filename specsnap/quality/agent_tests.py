"""The agent's own tests: which requirements they test.

The test files the agent added or changed since the baseline (and its conftest.py files) are run,
as subjects like the visible tests (specsnap.grading: another account, no network, a time limit),
against trees SpecSnap builds from the tier's reference solution: first the starter with every
requirement's reference ("all"), then, for each requirement R, the starter with every reference
but R's ("all but R"). A requirement counts as *tested by the agent* when at least one of the
agent's tests passes on "all" and fails on "all but R" (`credit`): the test tells R's behaviour
from its absence with everything else the sprint asks for in place, so a test of another
requirement, or one that passes everywhere, credits nothing.

Cost: one run for "all", then one per requirement, of only the tests that passed on "all"
(none passed: no further run). Each run ends after RUN_LIMIT_S; the first run that does not
finish, or whose report cannot be read, ends the measurement ("not measured: why"), never the
grading. Whatever the agent's tests do, they only decide this signal.
"""

from __future__ import annotations

import shutil
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from specsnap.errors import InfrastructureError
from specsnap.grading.isolation import SubjectLauncher, grading_workspace, subject_launchers
from specsnap.grading.prepared import GRADER_INI, make_readable
from specsnap.grading.testrun import prepare_workspace, run_subject_pytest
from specsnap.quality.source import Snapshot, changed_files, is_test_file, is_test_support
from specsnap.sandbox.gitrepo import GitError
from specsnap.tier.model import Tier
from specsnap.tier.solutions import build_repository, requirement_patches

#: Longest one run of the agent's tests may take (each test also has the tier's test timeout).
RUN_LIMIT_S = 30
#: Requirements measured; beyond them a tier's requirements are listed as not measured.
MAX_REQUIREMENTS = 16
#: Tests of the agent's counted in one run; the rest are ignored.
MAX_TESTS = 2000
#: Test ids kept per requirement in the report.
IDS_KEPT = 5
FAILING = ("failed", "error")


@dataclass(frozen=True)
class Outcomes:
    """One run of the agent's tests: node id -> outcome, and the node ids whose collection
    failed (a module that cannot even be imported without a requirement fails all its tests)."""

    outcomes: Mapping[str, str]
    collect_errors: tuple[str, ...] = ()


def failing(run: Outcomes, test_id: str) -> bool:
    """Whether `test_id` failed in `run`: its outcome, or its module's (or a directory's above
    it) collection failed."""
    outcome = run.outcomes.get(test_id)
    if outcome is not None:
        return outcome in FAILING
    module = test_id.split("::", 1)[0]
    return any(
        error in ("", ".") or module == error or module.startswith(error.rstrip("/") + "/")
        for error in run.collect_errors
    )


def passing_with_all(with_all: Outcomes) -> list[str]:
    """The agent's tests that passed with every reference in place, sorted."""
    return sorted(t for t, outcome in with_all.outcomes.items() if outcome == "passed")


def credit(with_all: Outcomes, without: Mapping[str, Outcomes]) -> dict[str, tuple[str, ...]]:
    """For each requirement R of `without` (its "all but R" run): the agent's tests that pass
    with every reference and fail without R's. R is tested by the agent when there is one."""
    passed = passing_with_all(with_all)
    return {req: tuple(t for t in passed if failing(run, t)) for req, run in without.items()}


def agent_test_files(base: Snapshot, head: Snapshot) -> list[str]:
    """The test modules, conftest.py files and files of test directories the agent added or
    changed since the baseline."""
    return [p for p in changed_files(base, head) if is_test_support(p)]


def measure_agent_tests(
    tier: Tier, base: Snapshot, head: Snapshot, values: Mapping[str, Any]
) -> dict[str, Any]:
    """The report: {"files", "tests", "passed_with_all", "requirements": [{"id", "tested",
    "tests"}], "credited", "why"} (`why` says why nothing, or not everything, was measured)."""
    files = agent_test_files(base, head)
    report: dict[str, Any] = {
        "files": files,
        "tests": 0,
        "passed_with_all": 0,
        "requirements": [],
        "credited": [],
        "why": None,
    }
    if not any(is_test_file(f) for f in files):
        report["why"] = "the agent added or changed no test module"
        return report
    measured = [r.id for r in tier.requirements][:MAX_REQUIREMENTS]
    with subject_launchers() as subjects, grading_workspace(subjects.first) as work:
        prepare_workspace(tier, work)
        runner = _Runner(tier, head, files, values, work, subjects.visible)
        try:
            with_all = runner.run("all", [r.id for r in tier.requirements], None)
        except _NotMeasured as exc:
            report["why"] = f"not measured: {exc}"
            return report
        report["tests"] = len(with_all.outcomes)
        passed = passing_with_all(with_all)
        report["passed_with_all"] = len(passed)
        without: dict[str, Outcomes] = {}
        if passed:
            for req in measured:
                others = [r.id for r in tier.requirements if r.id != req]
                try:
                    without[req] = runner.run(f"without-{req}", others, passed)
                except _NotMeasured as exc:
                    report["why"] = f"not measured from {req} on: {exc}"
                    break
        else:
            report["why"] = "none of the agent's tests passed with every reference in place"
    credited = credit(with_all, without)
    report["requirements"] = [
        {"id": req, "tested": bool(credited[req]), "tests": list(credited[req][:IDS_KEPT])}
        for req in measured
        if req in credited
    ]
    report["credited"] = [req for req in measured if credited.get(req)]
    if len(tier.requirements) > MAX_REQUIREMENTS and report["why"] is None:
        report["why"] = f"only the first {MAX_REQUIREMENTS} requirements were measured"
    return report


class _NotMeasured(Exception):
    """A run of the agent's tests that says nothing: it ran over, or left no report."""


@dataclass
class _Runner:
    tier: Tier
    head: Snapshot
    files: Sequence[str]
    values: Mapping[str, Any]
    work: Path
    launcher: SubjectLauncher

    def run(self, name: str, requirements: list[str], only: list[str] | None) -> Outcomes:
        """The agent's tests (`only` these node ids, if given) on the starter with the
        references of `requirements`."""
        tree = self.work / "agent" / name
        tree.parent.mkdir(exist_ok=True)
        try:
            build_repository(
                self.tier, tree, requirement_patches(self.tier, requirements), self.values
            )
        except (GitError, InfrastructureError, OSError) as exc:
            raise _NotMeasured(f"the references of {name} do not build: {exc}") from None
        shutil.rmtree(tree / ".git", ignore_errors=True)
        for rel in self.files:
            target = tree / rel
            try:  # a path the reference tree holds otherwise (a file for a directory) is left out
                if target.resolve().is_relative_to(tree.resolve()):
                    target.parent.mkdir(parents=True, exist_ok=True)
                    target.write_bytes(self.head.files[rel])
            except OSError:
                continue
        (tree.parent / "pytest.ini").write_text(GRADER_INI)
        make_readable(tree.parent)
        targets = only if only is not None else [f for f in self.files if is_test_file(f)]
        args = [
            "-c",
            str(tree.parent / "pytest.ini"),
            "--rootdir",
            str(tree),
            "--import-mode=importlib",
            "-p",
            "no:cacheprovider",
            "-p",
            "pytest_timeout",
            f"--timeout={self.tier.test_timeout_s}",
            "--continue-on-collection-errors",
            "-q",
            "--no-header",
            *[str(tree / t) for t in targets],
        ]
        code_paths = [str((tree / p).resolve()) for p in self.tier.python_path]
        result = run_subject_pytest(
            self.launcher, self.work, f"agent-{name}", code_paths, args, RUN_LIMIT_S
        )
        if result["problem"] is not None:
            raise _NotMeasured(f"the agent's tests {result['problem']} (against {name})")
        # The report comes from the subject, where the agent's code ran: only node ids of what
        # was asked for count, and no more than MAX_TESTS of them.
        modules = set(self.files)
        outcomes = {
            node: outcome
            for node, outcome in sorted(result["outcomes"].items())
            if (node in only if only is not None else node.split("::", 1)[0] in modules)
        }
        kept = dict(list(outcomes.items())[:MAX_TESTS])
        return Outcomes(kept, tuple(result.get("collect_errors", ()))[:MAX_TESTS])
