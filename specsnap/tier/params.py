"""Seeded values: what a tier lets the seed choose, and the `${name}` templates that show them.

A requirement declares the values its seed draws (tier.yaml `params`: each a list of `choices` or
an integer `range` with a `step`); tier/draws.py makes the draw. The sprint, the amendments, the
reference solution and the hidden tests' expectations all come from the same values, so a
solution memorised for one seed fails another's.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from specsnap.errors import InputError, Problem

PLACEHOLDER = re.compile(r"\$\{([a-z][a-z0-9_]*)\}")

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
