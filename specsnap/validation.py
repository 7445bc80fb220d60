"""`specsnap tiers validate`: the evidence that a tier is sound (SPEC §4).

Each check grades a real repository built from the starter and reference patches, through the
same grader a run uses: the reference scores 100% raw and net; the starter 0% raw with the gate
holding; every requirement's patch alone passes exactly that requirement; nothing of the grader
or solution reaches the sandbox; tier 4's original-contract solution fails every amended
requirement.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from specsnap.grading import Grade, grade_repository
from specsnap.params import Value, draw, values_for
from specsnap.runs import prepare_run
from specsnap.solutions import build_repository, requirement_patches
from specsnap.tiers import Tier, load_tier

Echo = Callable[[str], None]


@dataclass
class ValidationReport:
    tier_id: str
    failures: list[str] = field(default_factory=list)
    checks: int = 0

    @property
    def ok(self) -> bool:
        return not self.failures


def validate_tier(tier_ref: str, seeds: int = 5, echo: Echo = print) -> ValidationReport:
    """Run every soundness check of one tier over `seeds` seeds, printing the evidence."""
    tier = load_tier(tier_ref)
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

    with tempfile.TemporaryDirectory(prefix="specsnap-validate-") as tmp:
        root = Path(tmp)
        root.chmod(0o711)  # sessions and test runs may use an unprivileged account
        built: dict[str, Path] = {}

        def graded(name: str, patches: list[Path], patch_seed: int, grade_seed: int) -> Grade:
            key = f"{name}-{patch_seed}"
            if key not in built:
                values = values_for(tier, patch_seed)
                built[key] = build_repository(tier, root / key, patches, values)
            return grade_repository(tier, built[key], values_for(tier, grade_seed))

        for path in sorted(tier.solution.glob("*.patch")):
            if path.stem != "BASELINE" and path.stem not in all_ids:
                check(False, f"solution/{path.name} belongs to no requirement")
        _check_sandbox(tier, root / "run", check)

        for seed in draws:
            echo(f" seed {seed}: {_describe(draws[seed])}")
            _check_seed(tier, seed, graded, check)

        for a in draws:
            for b in draws:
                if a == b:
                    continue
                changed = {
                    r.id
                    for r in tier.requirements
                    if any(draws[a][p.name] != draws[b][p.name] for p in r.params)
                }
                if not changed:
                    continue
                cross = graded("reference", requirement_patches(tier, all_ids), a, b)
                passed = {tier.requirements[i].id for i, p in enumerate(cross.passed_flags) if p}
                carried = sorted(changed & passed)
                check(
                    not carried,
                    f"seed {a}'s reference graded for seed {b}: fails the {len(changed)} "
                    f"requirement(s) whose values differ"
                    + (f" — but passes {carried}" if carried else ""),
                )

    verdict = "valid" if report.ok else f"INVALID ({len(report.failures)} failed)"
    echo(f"{tier.id}: {report.checks} checks, {verdict}")
    return report


def _check_seed(
    tier: Tier,
    seed: int,
    graded: Callable[[str, list[Path], int, int], Grade],
    check: Callable[[bool, str], None],
) -> None:
    """Starter 0%, reference 100%, each requirement alone exactly itself, under one seed."""
    all_ids = [r.id for r in tier.requirements]
    starter = graded("starter", [], seed, seed)
    check(not any(starter.passed_flags), f"starter: raw {_pct(starter)} (expected 0%)")
    if tier.cutoff_arm == "session_start":
        check(starter.gate["holds"], f"starter: gate holds{_why(starter)}")
    else:
        check(not starter.gate["baseline_ok"], "starter: baseline fails until TASK.md is done")
        base = graded("baseline", requirement_patches(tier, []), seed, seed)
        check(
            not any(base.passed_flags) and base.gate["holds"],
            f"starter + BASELINE: raw {_pct(base)}, gate holds{_why(base)}",
        )
    full = graded("reference", requirement_patches(tier, all_ids), seed, seed)
    check(
        all(full.passed_flags) and full.gate["holds"],
        f"reference: raw {_pct(full)}, net {_pct(full) if full.gate['holds'] else '0%'}"
        f"{_why(full)}{_failing(full)}",
    )
    for req in tier.requirements:
        expected = {req.id, *req.depends_on}
        alone = graded(f"alone-{req.id}", requirement_patches(tier, [req.id]), seed, seed)
        got = {tier.requirements[i].id for i, p in enumerate(alone.passed_flags) if p}
        check(
            got == expected and alone.gate["holds"],
            f"{req.id} alone: passes {sorted(got) or 'nothing'}"
            f" (expected {sorted(expected)}){_why(alone)}",
        )
    if tier.amendments:
        amended = {i for a in tier.amendments for i in a.amends}
        orig = graded(
            "original-contract", requirement_patches(tier, all_ids, original=True), seed, seed
        )
        got = {tier.requirements[i].id for i, p in enumerate(orig.passed_flags) if p}
        check(
            got == set(all_ids) - amended and orig.gate["holds"],
            f"original contract: fails exactly the amended {sorted(amended)}; "
            f"passes {len(got)}/{len(all_ids)}{_why(orig)}",
        )


def _describe(drawn: dict[str, Value]) -> str:
    return ", ".join(f"{k}={v}" for k, v in drawn.items()) or "(no seeded values)"


def _check_sandbox(tier: Tier, run_dir: Path, check: Callable[[bool, str], None]) -> None:
    prepare_run(tier.id, 0, "noop", run_dir)
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
