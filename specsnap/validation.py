"""`specsnap tiers validate`: the evidence that a tier is sound (docs/protocol.md).

Each check grades a real repository built from the starter and reference patches, through the
same grader a run uses: the reference scores 100% raw and net; the starter 0% raw with the gate
holding; every requirement's patch alone passes exactly that requirement; nothing of the grader
or solution reaches the sandbox; tier 4's original-contract solution fails every amended
requirement.
"""

from __future__ import annotations

import os
import tempfile
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from specsnap.grading import Grade, grade_repository
from specsnap.params import Value, draw, values_for
from specsnap.perturbations import stage2_tier
from specsnap.runs import prepare_run
from specsnap.solutions import build_repository, requirement_patches
from specsnap.stage2_checks import plan_stage2, stale_note_check
from specsnap.tiers import Requirement, Tier, load_tier

Echo = Callable[[str], None]
Pending = Future[Grade]


@dataclass
class ValidationReport:
    tier_id: str
    failures: list[str] = field(default_factory=list)
    checks: int = 0

    @property
    def ok(self) -> bool:
        return not self.failures


def validate_tier(
    tier_ref: str, seeds: int = 5, echo: Echo = print, workers: int | None = None
) -> ValidationReport:
    """Run every soundness check of one tier over `seeds` seeds, printing the evidence.

    Gradings run `workers` at a time (default: the number of CPUs, at least 2).
    """
    tier = load_tier(tier_ref)
    graded_as = stage2_tier(tier, planted=False)
    report = ValidationReport(tier.id)
    all_ids = [r.id for r in tier.requirements]
    draws: dict[int, dict[str, Value]] = {}
    for seed in range(seeds):
        drawn = draw(tier, seed)
        if drawn not in draws.values():
            draws[seed] = drawn
    echo(
        f"{tier.id}: {len(all_ids)} requirements, {tier.sessions} sessions, "
        f"{len(draws)} distinct draws from seeds 0..{seeds - 1}"
    )

    def check(ok: bool, what: str) -> None:
        report.checks += 1
        echo(f"  {'ok  ' if ok else 'FAIL'} {what}")
        if not ok:
            report.failures.append(what)

    with (
        tempfile.TemporaryDirectory(prefix="specsnap-validate-") as tmp,
        ThreadPoolExecutor(max_workers=workers or max(2, os.cpu_count() or 1)) as pool,
    ):
        root = Path(tmp)
        root.chmod(0o711)  # sessions and test runs may use an unprivileged account
        built: dict[str, Future[Path]] = {}
        lock = threading.Lock()

        def build(key: str, patches: list[Path], seed: int) -> Path:
            return build_repository(tier, root / key, patches, values_for(tier, seed))

        def graded(name: str, patches: list[Path], patch_seed: int, grade_seed: int) -> Pending:
            key = f"{name}-{patch_seed}"
            with lock:
                if key not in built:
                    built[key] = pool.submit(build, key, patches, patch_seed)
            repo = built[key]

            def grade() -> Grade:
                # Each build was submitted before any grading that needs it, so this wait
                # never holds a worker that the build is queued behind. Stage II's checks are
                # baseline behaviour: the starter and every reference must pass them too.
                return grade_repository(graded_as, repo.result(), values_for(tier, grade_seed))

            return pool.submit(grade)

        for path in sorted(tier.solution.glob("*.patch")):
            if path.stem != "BASELINE" and path.stem not in all_ids:
                check(False, f"solution/{path.name} belongs to no requirement")
        _check_sandbox(tier, root / "run", check)

        # Every grading is submitted first and runs in parallel; the checks read them in order.
        steps: list[Callable[[], None]] = []
        for seed in draws:
            steps.append(partial(echo, f" seed {seed}: {_describe(draws[seed])}"))
            steps += _plan_seed(tier, seed, graded, check)
            steps.append(partial(stale_note_check, tier, seed, check))
        steps += plan_stage2(tier, next(iter(draws)), root, pool.submit, check)
        for a in draws:
            for b in draws:
                changed = {
                    r.id
                    for r in tier.requirements
                    if any(draws[a][p.name] != draws[b][p.name] for p in r.params)
                }
                if a != b and changed:
                    cross = graded("reference", requirement_patches(tier, all_ids), a, b)
                    steps.append(partial(_check_cross, tier, a, b, changed, cross, check))
        for step in steps:
            step()

    verdict = "valid" if report.ok else f"INVALID ({len(report.failures)} failed)"
    echo(f"{tier.id}: {report.checks} checks, {verdict}")
    return report


def _plan_seed(
    tier: Tier,
    seed: int,
    graded: Callable[[str, list[Path], int, int], Pending],
    check: Callable[[bool, str], None],
) -> list[Callable[[], None]]:
    """Starter 0%, reference 100%, each requirement alone exactly itself, under one seed: the
    gradings are submitted now, the checks returned to run in order."""
    all_ids = [r.id for r in tier.requirements]
    steps: list[Callable[[], None]] = []
    starter = graded("starter", [], seed, seed)

    def starter_checks() -> None:
        grade = starter.result()
        check(not any(grade.passed_flags), f"starter: raw {_pct(grade)} (expected 0%)")
        if tier.cutoff_arm == "session_start":
            check(grade.gate["holds"], f"starter: gate holds{_why(grade)}")
        else:
            check(not grade.gate["baseline_ok"], "starter: baseline fails until TASK.md is done")

    steps.append(starter_checks)
    if tier.cutoff_arm != "session_start":
        base = graded("baseline", requirement_patches(tier, []), seed, seed)

        def baseline_check() -> None:
            grade = base.result()
            check(
                not any(grade.passed_flags) and grade.gate["holds"],
                f"starter + BASELINE: raw {_pct(grade)}, gate holds{_why(grade)}",
            )

        steps.append(baseline_check)
    full = graded("reference", requirement_patches(tier, all_ids), seed, seed)

    def reference_check() -> None:
        grade = full.result()
        check(
            all(grade.passed_flags) and grade.gate["holds"],
            f"reference: raw {_pct(grade)}, net {_pct(grade) if grade.gate['holds'] else '0%'}"
            f"{_why(grade)}{_failing(grade)}",
        )

    steps.append(reference_check)
    for req in tier.requirements:
        alone = graded(f"alone-{req.id}", requirement_patches(tier, [req.id]), seed, seed)

        def alone_check(req: Requirement = req, alone: Pending = alone) -> None:
            expected = {req.id, *req.depends_on}
            grade = alone.result()
            got = {tier.requirements[i].id for i, p in enumerate(grade.passed_flags) if p}
            check(
                got == expected and grade.gate["holds"],
                f"{req.id} alone: passes {sorted(got) or 'nothing'}"
                f" (expected {sorted(expected)}){_why(grade)}",
            )

        steps.append(alone_check)
    if tier.amendments:
        amended = {i for a in tier.amendments for i in a.amends}
        patches = requirement_patches(tier, all_ids, original=True)
        orig = graded("original-contract", patches, seed, seed)

        def original_check() -> None:
            grade = orig.result()
            got = {tier.requirements[i].id for i, p in enumerate(grade.passed_flags) if p}
            check(
                got == set(all_ids) - amended and grade.gate["holds"],
                f"original contract: fails exactly the amended {sorted(amended)}; "
                f"passes {len(got)}/{len(all_ids)}{_why(grade)}",
            )

        steps.append(original_check)
    return steps


def _check_cross(
    tier: Tier,
    a: int,
    b: int,
    changed: set[str],
    cross: Pending,
    check: Callable[[bool, str], None],
) -> None:
    grade = cross.result()
    passed = {tier.requirements[i].id for i, p in enumerate(grade.passed_flags) if p}
    carried = sorted(changed & passed)
    check(
        not carried,
        f"seed {a}'s reference graded for seed {b}: fails the {len(changed)} "
        "requirement(s) whose values differ" + (f" — but passes {carried}" if carried else ""),
    )


def _describe(drawn: dict[str, Value]) -> str:
    return ", ".join(f"{k}={v}" for k, v in drawn.items()) or "(no seeded values)"


def _check_sandbox(tier: Tier, run_dir: Path, check: Callable[[bool, str], None]) -> None:
    prepare_run(str(tier.root), 0, "noop", run_dir)
    secret = {
        p.read_bytes()
        for d in (tier.grader, tier.solution, tier.solution_original)
        if d.is_dir()
        for p in d.rglob("*")
        if p.is_file()
    }
    leaked = [
        p.relative_to(run_dir)
        for p in (run_dir / "sandbox").rglob("*")
        if p.is_file() and ".git" not in p.parts and p.read_bytes() in secret
    ]
    check(not leaked, f"sandbox holds nothing of grader/ or solution/ {leaked or ''}")


def _pct(grade: Grade) -> str:
    flags = grade.passed_flags
    return f"{100 * sum(flags) / len(flags):.0f}%"


def _why(grade: Grade) -> str:
    gate = grade.gate
    if gate["holds"]:
        return ""
    parts = [f"{f['test']}: {f['outcome']}" for f in gate["baseline_failures"][:3]]
    parts += [f"{c['path']} {c['change']}" for c in gate["protected_changes"][:3]]
    parts += [f"{v['importer']}->{v['imported']}" for v in gate["wiring_violations"][:3]]
    return " [gate: " + "; ".join(parts) + "]"


def _failing(grade: Grade) -> str:
    failing = [r["id"] for r in grade.requirements if not r["passed"]]
    return f" failing: {failing}" if failing else ""
