"""`specsnap tiers validate`, Stage II: the evidence that a tier's perturbation material works.

Each check grades a real repository, built the way a Stage II run changes the sandbox: the
teammate's commits are made by the same function the run uses (perturbations.workspace), on
the starter (plus tier 1's BASELINE.patch), and graded as Stage II grades (the regression's
hidden checks in the gate):

- the planted regression fails the visible tests it names;
- its fix at the cause passes every baseline test, hidden checks included;
- its special-cased fix passes the visible tests but fails a hidden check;
- reverting the teammate's whole commit passes the visible tests but fails a check of the
  wanted change the commit also made (`keeps`), which the fix at the cause keeps;
- the refactor keeps the starter's behaviour, and git sees exactly the moves tier.yaml names;
- after the refactor and the regression, the reference solution (aimed at the moved files) and
  the fix at the cause score 100% with the gate holding;
- for each seed, a stale note has values to work with: drawn values of two characters or more
  that their requirement's text states, without any other choice of the same parameter.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Future
from pathlib import Path

from specsnap.grading import Grade, gate_findings, grade_repository
from specsnap.sandbox.gitrepo import BASELINE_IDENTITY, own_git
from specsnap.stage2.perturbations import stage2_tier
from specsnap.stage2.perturbations.notes import states, unambiguous
from specsnap.stage2.perturbations.workspace import commit_as_teammate
from specsnap.tier.draws import values_for
from specsnap.tier.model import Tier
from specsnap.tier.params import render
from specsnap.tier.solutions import (
    build_repository,
    follow_moves,
    rendered_patch,
    requirement_patches,
)

Check = Callable[[bool, str], None]
Submit = Callable[[Callable[[], Grade]], "Future[Grade]"]
Step = Callable[[], None]

#: What a built repository gets after its baseline: teammate commits, then patches on top.
REGRESSION, REFACTOR, REVERT = "regression", "refactor", "revert"


def plan_stage2(tier: Tier, seed: int, root: Path, submit: Submit, check: Check) -> list[Step]:
    """Submit the Stage II gradings of `tier` (values of `seed`); the checks, to run in order."""
    material = tier.stage2
    if material is None:
        return []
    regression = material.regression
    values = values_for(tier, seed)
    base = requirement_patches(tier, [])
    everything = requirement_patches(tier, [r.id for r in tier.requirements])[len(base) :]

    def graded(name: str, commits: list[str], patches: list[Path]) -> Future[Grade]:
        def work() -> Grade:
            repo = _build(tier, root / f"stage2-{name}", base, commits, patches, values)
            return grade_repository(stage2_tier(tier, REGRESSION in commits), repo, values)

        return submit(work)

    planted = graded("regression", [REGRESSION], [])
    fixed = graded("root-cause", [REGRESSION], [regression.root_cause])
    special = graded("special-case", [REGRESSION], [regression.special_case])
    reverted = graded("revert", [REGRESSION, REVERT], [])
    moved = graded("refactor", [REFACTOR], [])
    whole = graded("reference", [REFACTOR, REGRESSION], [*everything, regression.root_cause])
    caught = {f"visible/{t}" for t in regression.catches}
    checks = set(regression.hidden_tests)
    keeps = set(regression.keeps)

    def planted_check() -> None:
        failing = _failing(planted.result())
        missed = sorted(caught - failing)
        check(
            not missed,
            "stage II: the planted regression fails the visible tests it names"
            + (f" — but not {missed}" if missed else ""),
        )

    def fixed_check() -> None:
        grade = fixed.result()
        check(
            grade.gate.holds,
            f"stage II: its fix at the cause passes every baseline test{_why(grade)}",
        )

    def special_check() -> None:
        failing = _failing(special.result())
        visible = sorted(f for f in failing if f.startswith("visible/"))
        check(
            not visible and bool(checks & failing),
            "stage II: the special-cased fix passes the visible tests and fails a hidden check"
            + (f" — visible failures {visible}" if visible else "")
            + ("" if checks & failing else " — but passes every hidden check"),
        )

    def revert_check() -> None:
        failing = _failing(reverted.result())
        kept = _failing(fixed.result()) & keeps
        check(
            not failing - keeps and bool(failing & keeps) and not kept,
            "stage II: reverting the teammate's commit fails a check of the wanted change it "
            "made, which the fix at the cause keeps"
            + (f" — other failures {sorted(failing - keeps)}" if failing - keeps else "")
            + ("" if failing & keeps else " — but the revert passes every check it keeps")
            + (f" — the fix at the cause fails {sorted(kept)}" if kept else ""),
        )

    def refactor_check() -> None:
        grade = moved.result()
        found = _renames(root / "stage2-refactor")
        expected = dict(material.refactor.moves)
        check(
            grade.gate.holds and not any(grade.passed_flags) and found == expected,
            f"stage II: the refactor keeps the starter's behaviour and moves {expected}"
            + ("" if found == expected else f" — git sees {found}")
            + _why(grade),
        )

    def reference_check() -> None:
        grade = whole.result()
        ok = all(grade.passed_flags) and grade.gate.holds
        passed = sum(grade.passed_flags)
        check(
            ok,
            "stage II: after the refactor and the regression, the reference and the fix score "
            f"{passed}/{len(grade.passed_flags)}{_why(grade)}",
        )

    return [
        planted_check,
        fixed_check,
        special_check,
        revert_check,
        refactor_check,
        reference_check,
    ]


def stale_note_check(tier: Tier, seed: int, check: Check) -> None:
    """Whether the seed's sprint has values a stale note can replace (pure)."""
    if tier.stage2 is None:
        return
    values = values_for(tier, seed)
    usable = [
        param.name
        for req in tier.requirements
        for param in req.params
        if unambiguous(
            render(f"{req.title}\n{req.text}", values),
            str(values[param.name]),
            tuple(str(c) for c in param.choices),
        )
    ]
    check(
        bool(usable),
        f"stage II, seed {seed}: a stale note can replace {len(usable)} drawn value(s)",
    )


def notes_read_check(tier: Tier, seed: int, check: Check) -> None:
    """Whether each requirement's text, read as Stage II's controls read their notes (a value
    is what the text names alone among its choices), gives the drawn values (pure). A text that
    names only another choice (`up` in "half a yen goes up", when `half_up` is drawn) makes the
    notetaker and the tracker write that choice's variant."""
    if tier.stage2 is None:
        return
    values = values_for(tier, seed)
    misread = []
    for req in tier.requirements:
        amended = [a.text for a in tier.amendments if req.id in a.amends]
        text = render("\n".join([req.title, req.text, *amended]), values)
        for param in req.params:
            named = [str(c) for c in param.choices if states(text, str(c))]
            if len(named) == 1 and named[0] != str(values[param.name]):
                misread.append(f"{req.id} names only {named[0]!r} of {param.name}")
    check(
        not misread,
        f"stage II, seed {seed}: the controls read every drawn value from its text"
        + (f" — but {'; '.join(misread)}" if misread else ""),
    )


def _build(
    tier: Tier,
    dest: Path,
    base: list[Path],
    commits: list[str],
    patches: list[Path],
    values: dict[str, object],
) -> Path:
    """The starter (and BASELINE.patch) committed, the teammate's commits on top, then
    `patches` applied (following the refactor's moves) and committed."""
    repo = build_repository(tier, dest, base, values)
    material = tier.stage2
    assert material is not None
    for name in commits:
        if name == REVERT:  # what an agent that reverts the teammate's commit makes
            own_git(repo, "update-index", "-q", "--refresh", check=False)
            own_git(repo, "revert", "--no-edit", "HEAD", env=BASELINE_IDENTITY)
            continue
        chosen = material.refactor if name == REFACTOR else material.regression
        commit_as_teammate(repo, rendered_patch(chosen.patch, values), chosen.message)
    # Our own repository, so git may read its files (in an agent's, SpecSnap never refreshes).
    own_git(repo, "update-index", "-q", "--refresh", check=False)
    moves = material.refactor.moves if REFACTOR in commits else {}
    for patch in patches:
        text = follow_moves(rendered_patch(patch, values), moves)
        own_git(repo, "apply", "--3way", "--whitespace=nowarn", "-", input=text.encode())
    if patches:
        own_git(repo, "add", "-A")
        own_git(repo, "commit", "-q", "--no-verify", "-m", "Stage II check", env=BASELINE_IDENTITY)
    return repo


def _renames(repo: Path) -> dict[str, str]:
    root = own_git(repo, "rev-list", "--max-parents=0", "HEAD").decode().split()[0]
    out = own_git(repo, "diff", "-M", "--name-status", "--diff-filter=R", root, "HEAD").decode()
    fields = [line.split("\t") for line in out.splitlines()]
    return {f[1]: f[2] for f in fields if len(f) == 3}


def _failing(grade: Grade) -> set[str]:
    return {f.test for f in grade.gate.baseline_failures}


def _why(grade: Grade) -> str:
    findings = gate_findings(grade.gate)
    return f" [gate: {findings}]" if findings else ""
