"""Grading: a fresh export of the graded commit, judged by the grader's own tests,
the tier's protected files and its module boundaries. Nothing the agent wrote decides its score.

The verdict is decided in the *judge*, a pytest process that runs the hidden tests and never
imports graded code; graded code runs only in *subjects* (one per requirement, another account,
no network) and reaches the judge as plain data over pipes the judge holds (grading/boot/).
"""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from specsnap.gitrepo import GitError, TamperedRepositoryError, export_commit, rev_parse
from specsnap.globs import matches
from specsnap.grading.imports import (
    forbidden_files,
    map_modules,
    runtime_violations,
    static_violations,
)
from specsnap.grading.isolation import Subjects, grading_workspace, subject_launchers
from specsnap.grading.testrun import TestRun, prepare_workspace, run_tests
from specsnap.receipt import merkle_digest
from specsnap.scoring import requirement_passed
from specsnap.tier.model import Tier
from specsnap.tier.params import render
from specsnap.tier.wiring import Violation

__all__ = ["Grade", "grade_repository", "grade_tree", "history_rewrites"]


@dataclass(frozen=True)
class Grade:
    """Everything grading found; the scorecard is built from this and nothing else."""

    head_commit: str | None
    tree_sha256: str | None
    requirements: list[dict[str, Any]]
    gate: dict[str, Any]
    facts: dict[str, Any] = field(default_factory=dict)

    @property
    def passed_flags(self) -> list[bool]:
        return [bool(r["passed"]) for r in self.requirements]


def grade_repository(
    tier: Tier,
    repo: Path,
    params: dict[str, Any] | None = None,
    breaches: list[dict[str, Any]] | None = None,
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
    breaches: list[dict[str, Any]] | None = None,
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
    requirements = [
        {
            "id": req.id,
            "title": render(req.title, params or {}),
            "package": req.package,
            "passed": requirement_passed([run.outcomes[t] for t in req.tests]),
            "tests": [{"id": t, "outcome": run.outcomes[t]} for t in req.tests],
        }
        for req in tier.requirements
    ]
    breaches += [{"session": None, "what": problem} for problem in run.channel_problems]
    gate = build_gate(tier, run, protected_changes, violations, breaches)
    facts = {
        "tests_collected": run.collected,
        "tests_expected": run.expected,
        "pytest_exit_code": run.exit_code,
        "run_problem": run.problem,
        "network_isolated": run.network_isolated,
        "isolation": subjects.first.isolation,
        "subjects": run.subjects,
        "shared_state": subjects.first.shared_state,
    }
    return Grade(head, tree_sha256, requirements, gate, facts)


def build_gate(
    tier: Tier,
    run: TestRun,
    protected_changes: list[dict[str, str]],
    violations: list[Violation],
    breaches: list[dict[str, Any]],
) -> dict[str, Any]:
    """The regression gate plus SpecSnap's protocol condition (docs/protocol.md)."""
    failures = [
        {"test": t, "outcome": run.outcomes[t]}
        for t in tier.hidden_baseline
        if run.outcomes[t] != "passed"
    ]
    failures += [
        {"test": f"visible/{t}", "outcome": outcome}
        for t, outcome in sorted(run.visible.items())
        if outcome != "passed"
    ]
    visible_seen = len(run.visible)
    if visible_seen != tier.visible_count:
        failures.append(
            {"test": "visible/", "outcome": f"{visible_seen} of {tier.visible_count} ran"}
        )
    for problem in (run.problem, run.visible_problem):
        if problem:
            failures.append({"test": "(test run)", "outcome": problem})
    gate = {
        "baseline_ok": not failures,
        "protected_ok": not protected_changes,
        "wiring_ok": not violations,
        "protocol_ok": not breaches,
        "baseline_failures": failures,
        "protected_changes": protected_changes,
        "wiring_violations": [v.as_dict() for v in violations],
        "protocol_breaches": breaches,
    }
    gate["holds"] = all(
        gate[k] for k in ("baseline_ok", "protected_ok", "wiring_ok", "protocol_ok")
    )
    return gate


def protected_file_changes(tier: Tier, export: Path) -> list[dict[str, str]]:
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
            changes.append(
                {"path": rel, "change": "deleted" if not graded.is_symlink() else "replaced"}
            )
        elif graded.read_bytes() != path.read_bytes():
            changes.append({"path": rel, "change": "modified"})
    return changes


def history_rewrites(repo: Path) -> list[dict[str, Any]]:
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
    return [{"session": None, "what": what} for what in found]


def _tampering(exc: Exception) -> list[dict[str, Any]]:
    """A repository whose objects or layout were forged is a breach, not only a failed export."""
    if isinstance(exc, TamperedRepositoryError):
        return [{"session": None, "what": f"the repository was tampered with: {exc}"}]
    return []


def _ungradable(
    tier: Tier,
    reason: str,
    breaches: list[dict[str, Any]],
    params: dict[str, Any],
    head: str | None = None,
) -> Grade:
    requirements = [
        {
            "id": r.id,
            "title": render(r.title, params),
            "package": r.package,
            "passed": False,
            "tests": [{"id": t, "outcome": "not-run"} for t in r.tests],
        }
        for r in tier.requirements
    ]
    gate = {
        "holds": False,
        "baseline_ok": False,
        "protected_ok": False,
        "wiring_ok": False,
        "protocol_ok": not breaches,
        "baseline_failures": [{"test": "(grading)", "outcome": reason}],
        "protected_changes": [],
        "wiring_violations": [],
        "protocol_breaches": breaches,
    }
    return Grade(head, None, requirements, gate, {"run_problem": reason})
