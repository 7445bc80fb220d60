"""A tier's reference solution, rendered for one draw of its seeded values.

Patches in `solution/` (and tier 4's `solution-original/`) are written against the starter and may
hold `${name}` placeholders; they are rendered with the values of a seed before they are applied,
so the reference of one seed is exactly what that seed's sprint asks for.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from specsnap.gitrepo import BASELINE_IDENTITY, create_baseline, git
from specsnap.params import render
from specsnap.tiers import Tier


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


def build_repository(
    tier: Tier, dest: Path, patches: Iterable[Path], values: Mapping[str, Any]
) -> Path:
    """A git repository of the starter with `patches` (rendered with `values`) committed."""
    shutil.copytree(tier.starter, dest, ignore=shutil.ignore_patterns("__pycache__"))
    create_baseline(dest, "Baseline")
    applied = False
    for patch in patches:
        text = rendered_patch(patch, values).encode()
        git(dest, "apply", "--3way", "--whitespace=nowarn", "-", input=text)
        applied = True
    if applied:
        git(dest, "add", "-A")
        git(dest, "commit", "-q", "--no-verify", "-m", "Reference", env=BASELINE_IDENTITY)
    return dest
