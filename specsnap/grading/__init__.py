"""Grading (SPEC §2, §5): a fresh export of the graded commit, judged by the grader's own tests,
the tier's protected files and its module boundaries. Nothing the agent wrote decides its score."""

from __future__ import annotations

import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from specsnap.gitrepo import GitError, export_commit, rev_parse
from specsnap.globs import matches
from specsnap.grading.tamper import tamper_findings
from specsnap.grading.testrun import TestRun, prepare_workspace, run_tests
from specsnap.identity import RunAs
from specsnap.receipt import merkle_digest
from specsnap.scoring import requirement_passed
from specsnap.tiers import Tier
from specsnap.wiring import Violation, rule_broken, static_violations

__all__ = ["Grade", "grade_repository", "grade_tree"]


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
    tier: Tier, repo: Path, run_as: RunAs, breaches: list[dict[str, Any]] | None = None
) -> Grade:
    """Grade HEAD of the git repository `repo` (never its working tree)."""
    breaches = breaches or []
    try:
        head = rev_parse(repo)
    except GitError:
        head = None
    if head is None:
        return _ungradable(tier, f"no commit to grade: {repo} has no readable HEAD", breaches)
    with tempfile.TemporaryDirectory(prefix="specsnap-grade-") as tmp:
        work = Path(tmp)
        work.chmod(0o755)  # the grader's test run may be an unprivileged account
        export = work / "export"
        export.mkdir()
        export_commit(repo, head, export)
        return grade_tree(tier, export, work, run_as, head, breaches)


def grade_tree(
    tier: Tier,
    export: Path,
    work: Path,
    run_as: RunAs,
    head: str | None = None,
    breaches: list[dict[str, Any]] | None = None,
) -> Grade:
    """Grade the exported tree at `export`; `work` is a scratch directory beside it."""
    tree_sha256 = merkle_digest(export)
    protected_changes = protected_file_changes(tier, export)
    prepare_workspace(tier, export, work)
    # The static import graph is built while the test run, a subprocess, is under way.
    with ThreadPoolExecutor(max_workers=1) as pool:
        static_future = pool.submit(static_violations, tier.wiring, export)
        run = run_tests(tier, export, work, run_as)
        static = static_future.result()
    seen = {(v.importer, v.imported, v.file, v.line) for v in static}
    violations = static + [
        v
        for v in runtime_violations(tier, export, run)
        if (v.importer, v.imported, v.file, v.line) not in seen  # already found statically
    ]
    requirements = [
        {
            "id": req.id,
            "title": req.title,
            "package": req.package,
            "passed": requirement_passed([run.outcomes[t] for t in req.tests]),
            "tests": [{"id": t, "outcome": run.outcomes[t]} for t in req.tests],
        }
        for req in tier.requirements
    ]
    breaches = [*(breaches or []), *tamper_findings(tier.wiring, export)]
    gate = build_gate(tier, run, protected_changes, violations, breaches)
    facts = {
        "tests_collected": run.collected,
        "tests_expected": run.expected,
        "pytest_exit_code": run.exit_code,
        "run_problem": run.problem,
        "network_isolated": run.network_isolated,
        "isolation": run_as.isolation,
    }
    return Grade(head, tree_sha256, requirements, gate, facts)


def build_gate(
    tier: Tier,
    run: TestRun,
    protected_changes: list[dict[str, str]],
    violations: list[Violation],
    breaches: list[dict[str, Any]],
) -> dict[str, Any]:
    """The regression gate of SPEC §2, plus SpecSnap's protocol condition (docs/protocol.md)."""
    baseline_ids = [
        *tier.hidden_baseline,
        *sorted(k for k in run.outcomes if k.startswith("visible/")),
    ]
    failures = [
        {"test": t, "outcome": run.outcomes[t]} for t in baseline_ids if run.outcomes[t] != "passed"
    ]
    visible_seen = sum(1 for k in run.outcomes if k.startswith("visible/"))
    if visible_seen < tier.visible_count:
        failures.append(
            {"test": "visible/", "outcome": f"{visible_seen} of {tier.visible_count} ran"}
        )
    if run.problem:
        failures.append({"test": "(test run)", "outcome": run.problem})
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


def runtime_violations(tier: Tier, export: Path, run: TestRun) -> list[Violation]:
    """Boundary violations among the imports the graded code made while the tests ran."""
    root = str(export.resolve()) + "/"
    found = {}
    for importer, imported, file, line in run.runtime_imports:
        rule = rule_broken(tier.wiring, importer, imported)
        if rule is None or not file.startswith(root):
            continue
        rel = file[len(root) :]
        found[(importer, imported, rel, line)] = Violation(
            importer, imported, rel, line, rule, "dynamic"
        )
    return [found[k] for k in sorted(found)]


def _ungradable(tier: Tier, reason: str, breaches: list[dict[str, Any]]) -> Grade:
    requirements = [
        {
            "id": r.id,
            "title": r.title,
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
    return Grade(None, None, requirements, gate, {"run_problem": reason})
