"""Grading: a fresh export of the graded commit, judged by the grader's own tests,
the tier's protected files and its module boundaries. Nothing the agent wrote decides its score.

The verdict is decided in the *judge*, a pytest process that runs the hidden tests and never
imports graded code; graded code runs only in *subjects* (one per requirement, another account,
no network) and reaches the judge as plain data over pipes the judge holds (grading/boot/).
"""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from specsnap.grading.imports import (
    forbidden_files,
    map_modules,
    runtime_violations,
    static_violations,
)
from specsnap.grading.isolation import Subjects, grading_workspace, subject_launchers
from specsnap.grading.testrun import TestRun, prepare_workspace, run_tests
from specsnap.sandbox.gitrepo import GitError, TamperedRepositoryError, export_commit, rev_parse
from specsnap.sandbox.globs import matches
from specsnap.scorecard.model import (
    BaselineFailure,
    Breach,
    Gate,
    Grading,
    ProtectedChange,
    Requirement,
    TestResult,
    WiringViolation,
)
from specsnap.scorecard.receipt import merkle_digest
from specsnap.scorecard.scoring import requirement_passed
from specsnap.tier.model import Tier
from specsnap.tier.params import render

__all__ = ["Grade", "gate_findings", "grade_repository", "grade_tree", "history_rewrites"]


@dataclass(frozen=True)
class Grade:
    """Everything grading found, as the scorecard's own types; the scorecard is built from this
    and nothing else."""

    head_commit: str | None
    tree_sha256: str | None
    requirements: tuple[Requirement, ...]
    gate: Gate
    facts: Grading

    @property
    def passed_flags(self) -> list[bool]:
        return [r.passed for r in self.requirements]


def grade_repository(
    tier: Tier,
    repo: Path,
    params: dict[str, Any] | None = None,
    breaches: list[Breach] | None = None,
) -> Grade:
    """Grade HEAD of the git repository `repo` (never its working tree).

    A commit that cannot be read or exported is the agent's failure: the gate fails and says
    why; it is never an infrastructure error.
    """
    breaches = [*(breaches or []), *history_rewrites(repo)]
    try:
        head = rev_parse(repo)
    except GitError as exc:
        breaches += _tampering(exc)
        return _ungradable(tier, f"unexportable commit: {exc}", breaches, params or {})
    if head is None:
        reason = f"no commit to grade: {repo} has no readable HEAD"
        return _ungradable(tier, reason, breaches, params or {})
    with subject_launchers() as subjects, grading_workspace(subjects.first) as work:
        export = work / "export"
        export.mkdir()
        try:
            export_commit(repo, head, export)
        except (GitError, OSError, ValueError) as exc:
            breaches += _tampering(exc)
            reason = f"unexportable commit {head[:12]}: {exc}"
            return _ungradable(tier, reason, breaches, params or {}, head)
        return grade_tree(tier, export, work, subjects, head, params or {}, breaches)


def grade_tree(
    tier: Tier,
    export: Path,
    work: Path,
    subjects: Subjects,
    head: str | None = None,
    params: dict[str, Any] | None = None,
    breaches: list[Breach] | None = None,
) -> Grade:
    """Grade the exported tree at `export`; `work` is a scratch directory beside it (made by
    grading_workspace, so that subjects can reach it)."""
    tree_sha256 = merkle_digest(export)
    protected_changes = protected_file_changes(tier, export)
    breaches = [*(breaches or []), *forbidden_files(export)]
    prepare_workspace(tier, work)
    modules = map_modules(export, tier.python_path)
    # The static reading of the tree runs while the judge's subprocesses work.
    with ThreadPoolExecutor(max_workers=1) as pool:
        static_future = pool.submit(static_violations, tier.wiring, export, modules)
        run = run_tests(tier, export, work, subjects, params or {})
        static = static_future.result()
    seen = {(v.importer, v.imported, v.file, v.line) for v in static}
    violations = static + [
        v
        for v in runtime_violations(tier.wiring, run.runtime_imports, modules, export)
        if (v.importer, v.imported, v.file, v.line) not in seen  # already found statically
    ]
    requirements = tuple(
        Requirement(
            id=req.id,
            title=render(req.title, params or {}),
            package=req.package,
            passed=requirement_passed([run.outcomes[t] for t in req.tests]),
            tests=tuple(TestResult(t, run.outcomes[t]) for t in req.tests),
        )
        for req in tier.requirements
    )
    breaches += [Breach(session=None, what=problem) for problem in run.channel_problems]
    gate = build_gate(tier, run, protected_changes, violations, breaches)
    facts = Grading(
        tests_collected=run.collected,
        tests_expected=run.expected,
        pytest_exit_code=run.exit_code,
        run_problem=run.problem,
        network_isolated=run.network_isolated,
        isolation=subjects.first.isolation,
        subjects=run.subjects,
        shared_state=subjects.first.shared_state,
    )
    return Grade(head, tree_sha256, requirements, gate, facts)


def build_gate(
    tier: Tier,
    run: TestRun,
    protected_changes: list[ProtectedChange],
    violations: list[WiringViolation],
    breaches: list[Breach],
) -> Gate:
    """The regression gate plus SpecSnap's protocol condition (docs/protocol.md)."""
    failures = [
        BaselineFailure(t, run.outcomes[t])
        for t in tier.hidden_baseline
        if run.outcomes[t] != "passed"
    ]
    failures += [
        BaselineFailure(f"visible/{t}", outcome)
        for t, outcome in sorted(run.visible.items())
        if outcome != "passed"
    ]
    visible_seen = len(run.visible)
    if visible_seen != tier.visible_count:
        failures.append(BaselineFailure("visible/", f"{visible_seen} of {tier.visible_count} ran"))
    for problem in (run.problem, run.visible_problem):
        if problem:
            failures.append(BaselineFailure("(test run)", problem))
    return Gate(
        holds=not (failures or protected_changes or violations or breaches),
        baseline_ok=not failures,
        protected_ok=not protected_changes,
        wiring_ok=not violations,
        protocol_ok=not breaches,
        baseline_failures=tuple(failures),
        protected_changes=tuple(protected_changes),
        wiring_violations=tuple(violations),
        protocol_breaches=tuple(breaches),
    )


def gate_findings(gate: Gate, each: int = 3) -> str:
    """The first few baseline failures, protected changes and crossed boundaries, in one line
    (for `tiers validate`, which says why a check's gate failed)."""
    parts = [f"{f.test}: {f.outcome}" for f in gate.baseline_failures[:each]]
    parts += [f"{c.path} {c.change}" for c in gate.protected_changes[:each]]
    parts += [f"{v.importer}->{v.imported}" for v in gate.wiring_violations[:each]]
    return "; ".join(parts)


def protected_file_changes(tier: Tier, export: Path) -> list[ProtectedChange]:
    """Protected starter files that are changed, deleted or replaced at the graded commit."""
    patterns = [*tier.protected, "wiring.yaml", *(f"{p}/**" for p in tier.visible_tests)]
    patterns += list(tier.visible_tests)
    changes = []
    for path in sorted(tier.starter.rglob("*")):
        rel = path.relative_to(tier.starter).as_posix()
        if "__pycache__" in rel or path.is_dir() or not matches(rel, patterns):
            continue
        graded = export / rel
        if graded.is_symlink() or not graded.is_file():
            changes.append(ProtectedChange(rel, "replaced" if graded.is_symlink() else "deleted"))
        elif graded.read_bytes() != path.read_bytes():
            changes.append(ProtectedChange(rel, "modified"))
    return changes


def history_rewrites(repo: Path) -> list[Breach]:
    """Replace refs and grafts: ways to make a commit id show other content. Each is a breach."""
    git_dir = repo / ".git"
    found = []
    replace = git_dir / "refs" / "replace"
    if replace.is_dir() and any(p.is_file() for p in replace.rglob("*")):
        found.append("the repository holds replace refs (refs/replace/)")
    packed = git_dir / "packed-refs"
    if packed.is_file() and b" refs/replace/" in packed.read_bytes():
        found.append("the repository holds packed replace refs")
    if (git_dir / "info" / "grafts").exists():
        found.append("the repository holds grafts (.git/info/grafts)")
    if os.path.lexists(git_dir / "objects" / "info" / "alternates"):
        found.append("the repository borrows objects from elsewhere (objects/info/alternates)")
    return [Breach(session=None, what=what) for what in found]


def _tampering(exc: Exception) -> list[Breach]:
    """A repository whose objects or layout were forged is a breach, not only a failed export."""
    if isinstance(exc, TamperedRepositoryError):
        return [Breach(session=None, what=f"the repository was tampered with: {exc}")]
    return []


def _ungradable(
    tier: Tier,
    reason: str,
    breaches: list[Breach],
    params: dict[str, Any],
    head: str | None = None,
) -> Grade:
    requirements = tuple(
        Requirement(
            id=r.id,
            title=render(r.title, params),
            package=r.package,
            passed=False,
            tests=tuple(TestResult(t, "not-run") for t in r.tests),
        )
        for r in tier.requirements
    )
    gate = Gate(
        holds=False,
        baseline_ok=False,
        protected_ok=False,
        wiring_ok=False,
        protocol_ok=not breaches,
        baseline_failures=(BaselineFailure("(grading)", reason),),
        protected_changes=(),
        wiring_violations=(),
        protocol_breaches=tuple(breaches),
    )
    facts = Grading(
        tests_collected=None,
        tests_expected=None,
        pytest_exit_code=None,
        run_problem=reason,
        network_isolated=None,
        isolation=None,
        subjects=None,
    )
    return Grade(head, None, requirements, gate, facts)
