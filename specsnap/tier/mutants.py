"""A tier's mutation pass (`specsnap tiers validate --mutants`): how many plausible slips in the
reference solution its hidden tests catch.

`tiers/<tier>/mutants.yaml` lists the slips. Each replaces one text, found exactly once in one
file of the reference repository (the starter with every solution patch applied), by another;
both are rendered with the seed's values first. A mutant is killed when its repository no longer
scores 100% raw with the gate holding. One that survives is a stated rule that no hidden test
checks, or an equivalent mutant that does not belong in the file.
"""

from __future__ import annotations

import shutil
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from specsnap.errors import InputError, Problem
from specsnap.sandbox.gitrepo import BASELINE_IDENTITY, own_git
from specsnap.schemas import load_schema, parse_yaml, schema_problems
from specsnap.tier.model import Tier
from specsnap.tier.params import render

MUTANTS_FILE = "mutants.yaml"
KILL_RATE_FLOOR = 0.97


@dataclass(frozen=True)
class Mutant:
    """One plausible slip in the reference solution."""

    id: str
    file: str
    find: str
    replace: str
    why: str


def load_mutants(tier: Tier) -> list[Mutant]:
    """The tier's mutants; a missing or malformed file is an InputError naming every problem."""
    path = tier.root / MUTANTS_FILE
    if not path.is_file():
        raise InputError(
            [Problem(str(path), "(file)", "missing", "a list of mutants (docs/tiers.md)")]
        )
    try:
        data = parse_yaml(path.read_text(encoding="utf-8"))
    except yaml.YAMLError as exc:
        raise InputError([Problem(str(path), "(file)", "invalid YAML", str(exc))]) from None
    problems = schema_problems(data, load_schema("mutants"), str(path))
    if problems:
        raise InputError(problems)
    mutants = [Mutant(**entry) for entry in data]
    seen: set[str] = set()
    for number, mutant in enumerate(mutants):
        if mutant.id in seen:
            problems.append(Problem(str(path), f"{number}.id", mutant.id, "a unique id"))
        seen.add(mutant.id)
    if problems:
        raise InputError(problems)
    return mutants


def mutate(reference: Path, dest: Path, mutant: Mutant, values: Mapping[str, Any]) -> str | None:
    """A copy of the reference repository at `dest` with the slip committed on top; or why the
    slip does not apply (then `dest` holds no commit of it)."""
    shutil.copytree(reference, dest, symlinks=True)
    target = dest / mutant.file
    if not target.is_file():
        return f"{mutant.file} is not a file of the reference repository"
    where = f"{MUTANTS_FILE} {mutant.id}"
    find = render(mutant.find, values, f"{where} find")
    replace = render(mutant.replace, values, f"{where} replace")
    text = target.read_text(encoding="utf-8")
    count = text.count(find)
    if count != 1:
        return f"its find text occurs {count} times in {mutant.file} (expected once)"
    if find == replace:
        return "its replace text is its find text"
    target.write_text(text.replace(find, replace), encoding="utf-8")
    own_git(
        dest,
        "commit",
        "-q",
        "-a",
        "--no-verify",
        "-m",
        f"Mutant {mutant.id}",
        env=BASELINE_IDENTITY,
    )
    return None
