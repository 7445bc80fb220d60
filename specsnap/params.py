"""Seeded values: what a tier lets the seed choose, and the `${name}` templates that show them.

A requirement declares the values its seed draws (tier.yaml `params`: each a list of `choices` or
an integer `range` with a `step`). The draw is a pure function of the tier id, the seed and the
value's name. A tier may add values computed from the draw (worked examples, derived limits) in
an optional `parameters.py` at its root, `derive(values) -> dict`. The sprint, the amendments,
the reference solution and the hidden tests' expectations all come from the same values, so a
solution memorised for one seed fails another's.
"""

from __future__ import annotations

import random
import re
import types
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from specsnap.errors import InputError, Problem

if TYPE_CHECKING:
    from specsnap.tiers import Tier

PLACEHOLDER = re.compile(r"\$\{([a-z][a-z0-9_]*)\}")
DERIVE_FILE = "parameters.py"

Value = str | int


@dataclass(frozen=True)
class Param:
    """One value a requirement lets the seed draw."""

    name: str
    choices: tuple[Value, ...]
    doc: str = ""
    kind: str = "behaviour"  # or "name": aliases meet every draw of it at once

    @property
    def is_name(self) -> bool:
        return self.kind == "name"


def param_from_spec(name: str, spec: Mapping[str, Any]) -> Param:
    """A Param from its tier.yaml form (already schema-checked)."""
    if "choices" in spec:
        choices: tuple[Value, ...] = tuple(spec["choices"])
    else:
        low, high = spec["range"]
        choices = tuple(range(low, high + 1, spec.get("step", 1)))
    return Param(name, choices, spec.get("doc", ""), spec.get("kind", "behaviour"))


def draw(tier: Tier, seed: int) -> dict[str, Value]:
    """The values seed `seed` draws for `tier`, by name, in declaration order."""
    values: dict[str, Value] = {}
    for req in tier.requirements:
        for param in req.params:
            rng = random.Random(f"{tier.id}:{seed}:param:{param.name}")
            values[param.name] = rng.choice(param.choices)
    return values


def recall_seed(tier: Tier, seed: int, tries: int = 64) -> int:
    """Another seed whose draw differs from `seed`'s in as many values as possible (the recall
    control's: the reference it plays is one the run's sprint never asked for)."""
    mine = draw(tier, seed)

    def differences(other: int) -> int:
        theirs = draw(tier, other)
        return sum(theirs[name] != value for name, value in mine.items())

    return max(range(seed + 1, seed + 1 + tries), key=lambda other: (differences(other), -other))


def template_values(tier: Tier, drawn: Mapping[str, Value]) -> dict[str, Any]:
    """The drawn values plus what the tier's parameters.py derives from them."""
    derive = _derive_function(tier.root)
    values: dict[str, Any] = dict(drawn)
    if derive is not None:
        derived = derive(dict(drawn))
        values.update({k: v for k, v in derived.items() if k not in drawn})
    return values


def values_for(tier: Tier, seed: int) -> dict[str, Any]:
    """Everything templates and hidden tests of `tier` may use for seed `seed`."""
    return template_values(tier, draw(tier, seed))


def render(text: str, values: Mapping[str, Any], where: str = "template") -> str:
    """`text` with every `${name}` replaced; an unknown name is an InputError naming `where`."""
    missing = sorted({m for m in PLACEHOLDER.findall(text) if m not in values})
    if missing:
        raise InputError(
            [
                Problem(where, "${" + name + "}", "an unknown value", "a declared or derived value")
                for name in missing
            ]
        )
    return PLACEHOLDER.sub(lambda m: str(values[m.group(1)]), text)


def placeholders(text: str) -> set[str]:
    return set(PLACEHOLDER.findall(text))


@cache
def _derive_function(root: Path) -> Any:
    path = root / DERIVE_FILE
    if not path.is_file():
        return None
    # Compiled in memory: loading a tier never writes into it (no __pycache__ in tiers/).
    module = types.ModuleType(f"specsnap_tier_{root.name}_parameters")
    module.__file__ = str(path)
    exec(compile(path.read_text(encoding="utf-8"), str(path), "exec"), module.__dict__)
    return getattr(module, "derive", None)
