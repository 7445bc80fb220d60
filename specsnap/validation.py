"""`specsnap tiers validate`: the evidence that a tier is sound (docs/protocol.md).

Each check grades a real repository built from the starter and reference patches, through the
same grader a run uses: the reference scores 100% raw and net; the starter 0% raw with the gate
holding; every requirement's patch alone passes exactly that requirement; nothing of the grader
or solution reaches the sandbox; tier 4's original-contract solution fails every amended
requirement. A memoriser is held off: each requirement's behaviour (the values no alias meets for
two draws at once) is one of at least MEMORISER_ODDS joint draws, and one seed's reference with
another seed's names fails every requirement whose behaviour the two draw differently. With
`mutants`, the tier's mutation pass (specsnap.tier.mutants) runs on the first seed and its kill rate
is a check.
"""

from __future__ import annotations

import math
import os
import tempfile
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from specsnap.grading import Grade, gate_findings, grade_repository
from specsnap.quality.continuity import continuity
from specsnap.quality.source import snapshot
from specsnap.rundir import RunSpec
from specsnap.runs import prepare_run
from specsnap.stage2.checks import notes_read_check, plan_stage2, stale_note_check
from specsnap.stage2.perturbations import stage2_tier
from specsnap.tier.draws import draw, template_values, values_for
from specsnap.tier.loading import load_tier
from specsnap.tier.model import Requirement, Tier
from specsnap.tier.mutants import KILL_RATE_FLOOR, Mutant, load_mutants, mutate
from specsnap.tier.params import Value
from specsnap.tier.solutions import build_repository, requirement_patches

Echo = Callable[[str], None]
Pending = Future[Grade]
Values = dict[str, Any]
# A memoriser matches all of one requirement's behaviour by chance at most once in this many
# draws, so on a tier it gains at most about 5 points of raw retention (docs/protocol.md).
MEMORISER_ODDS = 20


@dataclass
class ValidationReport:
    tier_id: str
    failures: list[str] = field(default_factory=list)
    checks: int = 0

    @property
    def ok(self) -> bool:
        return not self.failures


def validate_tier(
    tier_ref: str,
    seeds: int = 5,
    echo: Echo = print,
    workers: int | None = None,
    mutants: bool = False,
) -> ValidationReport:
    """Run every soundness check of one tier over `seeds` seeds, printing the evidence; with
    `mutants`, its mutation pass too.

    Gradings run `workers` at a time (default: the number of CPUs, at least 2).
    """
    tier = load_tier(tier_ref)
    slips = load_mutants(tier) if mutants else []
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

        def repository(key: str, patches: list[Path], values: Values) -> Future[Path]:
            with lock:
                if key not in built:
                    built[key] = pool.submit(build_repository, tier, root / key, patches, values)
                return built[key]

        def graded(key: str, patches: list[Path], values: Values, grade_values: Values) -> Pending:
            repo = repository(key, patches, values)
            # Each build was submitted before any grading that needs it, so this wait never
            # holds a worker that the build is queued behind. Stage II's checks are baseline
            # behaviour: the starter and every reference must pass them too.
            return pool.submit(lambda: grade_repository(graded_as, repo.result(), grade_values))

        for path in sorted(tier.solution.glob("*.patch")):
            if path.stem != "BASELINE" and path.stem not in all_ids:
                check(False, f"solution/{path.name} belongs to no requirement")
        _check_sandbox(tier, root / "run", check)
        for req in tier.requirements:
            _check_odds(req, check)

        # Every grading is submitted first and runs in parallel; the checks read them in order.
        steps: list[Callable[[], None]] = []
        for seed in draws:
            steps.append(partial(echo, f" seed {seed}: {_describe(draws[seed])}"))
            steps += _plan_seed(tier, seed, graded, check)
            if any(a.contradicted for a in tier.amendments):  # its reference, built just above
                built_reference = repository(
                    f"reference-{seed}", requirement_patches(tier, all_ids), values_for(tier, seed)
                )
                steps.append(partial(_check_continuity, tier, seed, built_reference, check))
            steps.append(partial(stale_note_check, tier, seed, check))
            steps.append(partial(notes_read_check, tier, seed, check))
        steps += plan_stage2(tier, next(iter(draws)), root, pool.submit, check)
        reference = requirement_patches(tier, all_ids)
        for a in draws:
            for b in draws:
                changed = {r.id for r in tier.requirements if _behaviour(r, draws[a], draws[b])}
                if a != b and changed:
                    mixed = {**draws[a], **_names(tier, draws[b])}
                    key = f"reference-{a}" if mixed == draws[a] else f"reference-{a}-names-{b}"
                    values = template_values(tier, mixed)
                    cross = graded(key, reference, values, values_for(tier, b))
                    steps.append(partial(_check_cross, tier, a, b, changed, cross, check))
        if slips:
            steps.append(
                _plan_mutants(
                    tier, next(iter(draws)), slips, root, repository, graded_as, pool, echo, check
                )
            )
        for step in steps:
            step()

    verdict = "valid" if report.ok else f"INVALID ({len(report.failures)} failed)"
    echo(f"{tier.id}: {report.checks} checks, {verdict}")
    return report


def _behaviour(req: Requirement, a: dict[str, Value], b: dict[str, Value]) -> bool:
    """Whether draws `a` and `b` ask `req` for different behaviour (names aside)."""
    return any(a[p.name] != b[p.name] for p in req.params if not p.is_name)


def _names(tier: Tier, drawn: dict[str, Value]) -> dict[str, Value]:
    """The name-valued part of a draw: what a memoriser's aliases give it for any draw."""
    return {p.name: drawn[p.name] for r in tier.requirements for p in r.params if p.is_name}


def _check_odds(req: Requirement, check: Callable[[bool, str], None]) -> None:
    odds = math.prod(len(p.choices) for p in req.params if not p.is_name)
    alone = " — it draws only names" if req.params and odds == 1 else ""
    check(
        odds >= MEMORISER_ODDS,
        f"{req.id}: another seed's draw matches its behaviour 1 time in {odds} "
        f"(at most 1 in {MEMORISER_ODDS}){alone}",
    )


def _plan_mutants(
    tier: Tier,
    seed: int,
    slips: list[Mutant],
    root: Path,
    repository: Callable[[str, list[Path], Values], Future[Path]],
    graded_as: Tier,
    pool: ThreadPoolExecutor,
    echo: Echo,
    check: Callable[[bool, str], None],
) -> Callable[[], None]:
    """Every mutant of the reference of `seed`, graded in parallel; the step that reports them
    and checks the kill rate."""
    values = values_for(tier, seed)
    reference = repository(
        f"reference-{seed}", requirement_patches(tier, [r.id for r in tier.requirements]), values
    )

    def graded_mutant(slip: Mutant) -> Grade | str:
        dest = root / "mutants" / slip.id
        problem = mutate(reference.result(), dest, slip, values)
        return problem if problem is not None else grade_repository(graded_as, dest, values)

    outcomes = [(slip, pool.submit(graded_mutant, slip)) for slip in slips]

    def report() -> None:
        echo(f" mutants of seed {seed}'s reference:")
        killed = 0
        for slip, outcome in outcomes:
            result = outcome.result()
            if isinstance(result, str):
                check(False, f"mutant {slip.id} does not apply: {result}")
                continue
            caught = [r.id for r in result.requirements if not r.passed]
            caught += [] if result.gate.holds else ["the gate"]
            killed += bool(caught)
            echo(
                f"  killed   {slip.id} (by {', '.join(caught)})"
                if caught
                else f"  SURVIVED {slip.id}: {slip.why}"
            )
        rate = killed / len(outcomes)
        check(
            rate >= KILL_RATE_FLOOR,
            f"mutants: {killed} of {len(outcomes)} killed ({100 * rate:.1f}%; "
            f"at least {100 * KILL_RATE_FLOOR:.0f}%)",
        )

    return report


def _plan_seed(
    tier: Tier,
    seed: int,
    graded: Callable[[str, list[Path], Values, Values], Pending],
    check: Callable[[bool, str], None],
) -> list[Callable[[], None]]:
    """Starter 0%, reference 100%, each requirement alone exactly itself, under one seed: the
    gradings are submitted now, the checks returned to run in order."""
    all_ids = [r.id for r in tier.requirements]
    values = values_for(tier, seed)

    def at_seed(name: str, patches: list[Path]) -> Pending:
        return graded(f"{name}-{seed}", patches, values, values)

    steps: list[Callable[[], None]] = []
    starter = at_seed("starter", [])

    def starter_checks() -> None:
        grade = starter.result()
        check(not any(grade.passed_flags), f"starter: raw {_pct(grade)} (expected 0%)")
        if tier.cutoff_arm == "session_start":
            check(grade.gate.holds, f"starter: gate holds{_why(grade)}")
        else:
            check(not grade.gate.baseline_ok, "starter: baseline fails until TASK.md is done")

    steps.append(starter_checks)
    if tier.cutoff_arm != "session_start":
        base = at_seed("baseline", requirement_patches(tier, []))

        def baseline_check() -> None:
            grade = base.result()
            check(
                not any(grade.passed_flags) and grade.gate.holds,
                f"starter + BASELINE: raw {_pct(grade)}, gate holds{_why(grade)}",
            )

        steps.append(baseline_check)
    full = at_seed("reference", requirement_patches(tier, all_ids))

    def reference_check() -> None:
        grade = full.result()
        check(
            all(grade.passed_flags) and grade.gate.holds,
            f"reference: raw {_pct(grade)}, net {_pct(grade) if grade.gate.holds else '0%'}"
            f"{_why(grade)}{_failing(grade)}",
        )

    steps.append(reference_check)
    for req in tier.requirements:
        alone = at_seed(f"alone-{req.id}", requirement_patches(tier, [req.id]))

        def alone_check(req: Requirement = req, alone: Pending = alone) -> None:
            expected = {req.id, *req.depends_on}
            grade = alone.result()
            got = {tier.requirements[i].id for i, p in enumerate(grade.passed_flags) if p}
            check(
                got == expected and grade.gate.holds,
                f"{req.id} alone: passes {sorted(got) or 'nothing'}"
                f" (expected {sorted(expected)}){_why(grade)}",
            )

        steps.append(alone_check)
    if tier.amendments:
        amended = {i for a in tier.amendments for i in a.amends}
        patches = requirement_patches(tier, all_ids, original=True)
        orig = at_seed("original-contract", patches)

        def original_check() -> None:
            grade = orig.result()
            got = {tier.requirements[i].id for i, p in enumerate(grade.passed_flags) if p}
            check(
                got == set(all_ids) - amended and grade.gate.holds,
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
        f"seed {a}'s reference with seed {b}'s names graded for seed {b}: fails the "
        f"{len(changed)} requirement(s) whose behaviour differs"
        + (f" — but passes {carried}" if carried else ""),
    )


def _check_continuity(
    tier: Tier, seed: int, reference: Future[Path], check: Callable[[bool, str], None]
) -> None:
    """The reference solution honours every amendment: its checks find no old rule stated."""
    repo = reference.result()
    kept = continuity(
        tier, snapshot(repo, "HEAD~1"), snapshot(repo, "HEAD"), values_for(tier, seed)
    )
    found = [
        f"{a['amendment']} {s['file']}:{s['line']} ({s['says']})"
        for a in kept["amendments"]
        for s in a["statements"]
    ]
    check(
        not found,
        "reference: no rule an amendment replaced is still stated"
        + (f" (found {', '.join(found)})" if found else ""),
    )


def _describe(drawn: dict[str, Value]) -> str:
    return ", ".join(f"{k}={v}" for k, v in drawn.items()) or "(no seeded values)"


def _check_sandbox(tier: Tier, run_dir: Path, check: Callable[[bool, str], None]) -> None:
    prepare_run(RunSpec(str(tier.root), 0, "noop"), run_dir)
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
    return "" if grade.gate.holds else f" [gate: {gate_findings(grade.gate)}]"


def _failing(grade: Grade) -> str:
    failing = [r.id for r in grade.requirements if not r.passed]
    return f" failing: {failing}" if failing else ""
