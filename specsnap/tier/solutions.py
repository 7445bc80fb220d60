"""A tier's reference solution, rendered for one draw of its seeded values.

Patches in `solution/` (and tier 4's `solution-original/`) are written against the starter and may
hold `${name}` placeholders; they are rendered with the values of a seed before they are applied,
so the reference of one seed is exactly what that seed's sprint asks for.
"""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from specsnap.sandbox.gitrepo import BASELINE_IDENTITY, create_baseline, own_git
from specsnap.tier.draws import draw, template_values
from specsnap.tier.model import Tier
from specsnap.tier.params import render


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


def rendered_patch(path: Path, values: Mapping[str, Any]) -> str:
    return render(path.read_text(encoding="utf-8"), values, str(path))


def write_solution(tier: Tier, values: Mapping[str, Any], dest: Path) -> None:
    """Rendered copies of `solution/` (and `solution-original/`) under `dest`."""
    for source in (tier.solution, tier.solution_original):
        if not source.is_dir():
            continue
        target = dest / source.name
        target.mkdir(parents=True)
        for path in sorted(source.glob("*.patch")):
            (target / path.name).write_text(rendered_patch(path, values), encoding="utf-8")


def follow_moves(patch: str, moves: Mapping[str, str]) -> str:
    """`patch` aimed at where a refactor moved its files (old path -> new path)."""
    for old, new in moves.items():
        for side in ("a", "b"):
            patch = re.sub(
                rf"(?m)^((?:diff --git |--- |\+\+\+ )(?:.*\s)?){side}/{re.escape(old)}(?=\s|$)",
                rf"\g<1>{side}/{new}",
                patch,
            )
    return patch


def write_variants(tier: Tier, seed: int, dest: Path) -> None:
    """For Stage II's controls: each requirement's patch rendered with each other choice of
    one of its values (dest/variants/PARAM/N/ID.patch, N = the choice's index), and
    dest/variants.json ({id: {param: [choices]}}), so a control can write what its notes say."""
    drawn = draw(tier, seed)
    index: dict[str, dict[str, list[str]]] = {}
    for req in tier.requirements:
        patch = tier.solution / f"{req.id}.patch"
        for param in req.params:
            index.setdefault(req.id, {})[param.name] = [str(c) for c in param.choices]
            for number, choice in enumerate(param.choices):
                values = template_values(tier, {**drawn, param.name: choice})
                target = dest / "variants" / param.name / str(number) / patch.name
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_text(rendered_patch(patch, values), encoding="utf-8")
    (dest / "variants.json").write_text(json.dumps(index, indent=2), encoding="utf-8")


def write_stage2_fix(tier: Tier, values: Mapping[str, Any], dest: Path) -> None:
    """For Stage II's controls: the planted regression's fix at the cause, rendered."""
    if tier.stage2 is not None:
        (dest / "stage2").mkdir(parents=True, exist_ok=True)
        fix = rendered_patch(tier.stage2.regression.root_cause, values)
        (dest / "stage2" / "root-cause.patch").write_text(fix, encoding="utf-8")


def build_repository(
    tier: Tier, dest: Path, patches: Iterable[Path], values: Mapping[str, Any]
) -> Path:
    """A git repository of the starter with `patches` (rendered with `values`) committed."""
    shutil.copytree(tier.starter, dest, ignore=shutil.ignore_patterns("__pycache__"))
    create_baseline(dest, "Baseline")
    applied = False
    for patch in patches:
        text = rendered_patch(patch, values).encode()
        own_git(dest, "apply", "--3way", "--whitespace=nowarn", "-", input=text)
        applied = True
    if applied:
        own_git(dest, "add", "-A")
        own_git(dest, "commit", "-q", "--no-verify", "-m", "Reference", env=BASELINE_IDENTITY)
    return dest
