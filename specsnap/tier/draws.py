"""The seed's draw: which value of each declared param a seed chooses, and the values a tier's
optional `parameters.py` derives from them (`derive(values) -> dict`). The draw is a pure
function of the tier id, the seed and the value's name."""

from __future__ import annotations

import random
import types
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

from specsnap.tier.model import Tier
from specsnap.tier.params import Value

DERIVE_FILE = "parameters.py"


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
