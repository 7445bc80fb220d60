"""`specsnap tiers validate`: the evidence that a tier is sound (SPEC §4).

Each check grades a real repository built from the starter and reference patches, through the
same grader a run uses: the reference scores 100% raw and net; the starter 0% raw with the gate
holding; every requirement's patch alone passes exactly that requirement; nothing of the grader
or solution reaches the sandbox; tier 4's original-contract solution fails every amended
requirement.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from specsnap.gitrepo import BASELINE_IDENTITY, create_baseline, git
from specsnap.grading import Grade, grade_repository
from specsnap.identity import resolve_run_as
from specsnap.runs import prepare_run
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


def build_repository(tier: Tier, dest: Path, patches: Iterable[Path]) -> Path:
    """A git repository of the starter with `patches` applied and committed."""
    shutil.copytree(tier.starter, dest, ignore=shutil.ignore_patterns("__pycache__"))
    create_baseline(dest, "Baseline")
    applied = False
    for patch in patches:
        git(dest, "apply", "--3way", "--whitespace=nowarn", str(patch))
        applied = True
    if applied:
        git(dest, "add", "-A")
        git(dest, "commit", "-q", "--no-verify", "-m", "Reference", env=BASELINE_IDENTITY)
    return dest


def requirement_patches(tier: Tier, ids: Iterable[str], original: bool = False) -> list[Path]:
    """Patch files for `ids` (and their dependencies) in tier order, BASELINE first if any."""
    wanted = set(ids)
    for req_id in list(wanted):
        wanted |= set(tier.requirement(req_id).depends_on)
    patches = (
        [tier.solution / "BASELINE.patch"] if (tier.solution / "BASELINE.patch").exists() else []
    )
    for req in tier.requirements:
        if req.id in wanted:
            alt = tier.solution_original / f"{req.id}.patch"
            patches.append(alt if original and alt.exists() else tier.solution / f"{req.id}.patch")
    return patches


def validate_tier(tier_ref: str, echo: Echo = print) -> ValidationReport:
    """Run every soundness check of one tier, printing the evidence as it goes."""
    tier = load_tier(tier_ref)
    report = ValidationReport(tier.id)
    run_as = resolve_run_as()
    all_ids = [r.id for r in tier.requirements]
    echo(f"{tier.id}: {len(all_ids)} requirements, {tier.sessions} sessions")

    def check(ok: bool, what: str) -> None:
        report.checks += 1
        echo(f"  {'ok  ' if ok else 'FAIL'} {what}")
        if not ok:
            report.failures.append(what)

    with tempfile.TemporaryDirectory(prefix="specsnap-validate-") as tmp:
        root = Path(tmp)
        root.chmod(0o711)  # sessions and test runs may use an unprivileged account

        def graded(name: str, patches: list[Path]) -> Grade:
            return grade_repository(tier, build_repository(tier, root / name, patches), run_as)

        for path in sorted(tier.solution.glob("*.patch")):
            if path.stem != "BASELINE" and path.stem not in all_ids:
                check(False, f"solution/{path.name} belongs to no requirement")
        _check_sandbox(tier, root / "run", check)

        starter = graded("starter", [])
        gate_needed = tier.cutoff_arm == "session_start"
        check(not any(starter.passed_flags), f"starter: raw {_pct(starter)} (expected 0%)")
        if gate_needed:
            check(starter.gate["holds"], f"starter: gate holds{_why(starter)}")
        else:
            check(not starter.gate["baseline_ok"], "starter: baseline fails until TASK.md is done")
            base = graded("baseline", requirement_patches(tier, []))
            check(
                not any(base.passed_flags) and base.gate["holds"],
                f"starter + BASELINE: raw {_pct(base)}, gate holds{_why(base)}",
            )

        full = graded("reference", requirement_patches(tier, all_ids))
        check(
            all(full.passed_flags) and full.gate["holds"],
            f"reference: raw {_pct(full)}, net {_pct(full) if full.gate['holds'] else '0%'}"
            f"{_why(full)}{_failing(full)}",
        )

        for req in tier.requirements:
            expected = {req.id, *req.depends_on}
            alone = graded(f"alone-{req.id}", requirement_patches(tier, [req.id]))
            got = {tier.requirements[i].id for i, p in enumerate(alone.passed_flags) if p}
            check(
                got == expected and alone.gate["holds"],
                f"{req.id} alone: passes {sorted(got) or 'nothing'}"
                f" (expected {sorted(expected)}){_why(alone)}",
            )

        if tier.amendments:
            amended = {i for a in tier.amendments for i in a.amends}
            orig = graded("original-contract", requirement_patches(tier, all_ids, original=True))
            got = {tier.requirements[i].id for i, p in enumerate(orig.passed_flags) if p}
            check(
                got == set(all_ids) - amended and orig.gate["holds"],
                f"original contract: fails exactly the amended {sorted(amended)}; "
                f"passes {len(got)}/{len(all_ids)}{_why(orig)}",
            )

    verdict = "valid" if report.ok else f"INVALID ({len(report.failures)} failed)"
    echo(f"{tier.id}: {report.checks} checks, {verdict}")
    return report


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
