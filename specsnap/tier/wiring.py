"""Module boundaries (wiring.yaml): loading the rules, and the one function that judges an import.

Both halves of the check at grading time (the static reading of every importable file and the
module loads the subjects report at run time, specsnap/grading/imports.py) call `rule_broken`,
so they agree on what a violation is.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import yaml

from specsnap.errors import InputError, Problem
from specsnap.schemas import parse_yaml, schema_problems

WIRING_SCHEMA = {
    "type": "object",
    "additionalProperties": False,
    "required": ["packages"],
    "properties": {
        "packages": {
            "type": "object",
            "minProperties": 1,
            "additionalProperties": {
                "type": "object",
                "additionalProperties": False,
                "required": ["may_import"],
                "properties": {"may_import": {"type": "array", "items": {"type": "string"}}},
            },
        },
        "private": {"type": "array", "items": {"type": "string"}},
    },
}


@dataclass(frozen=True)
class Wiring:
    packages: Mapping[str, frozenset[str]]  # package -> the other packages it may import
    private: tuple[str, ...] = ()


def load_wiring(path: Path) -> Wiring:
    """Parse and validate a wiring.yaml; every problem is reported with file and key."""
    try:
        data = parse_yaml(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise InputError(
            [Problem(str(path), "(file)", "unreadable", f"valid YAML ({exc})")]
        ) from None
    problems = schema_problems(data, WIRING_SCHEMA, str(path))
    if not problems:
        names = set(data["packages"])
        for name, spec in data["packages"].items():
            for other in spec["may_import"]:
                if other not in names:
                    problems.append(
                        Problem(str(path), f"packages.{name}.may_import", other, "a listed package")
                    )
        for i, module in enumerate(data.get("private", [])):
            if module.split(".")[0] not in names:
                problems.append(
                    Problem(str(path), f"private.{i}", module, "a module of a listed package")
                )
    if problems:
        raise InputError(problems)
    return Wiring(
        packages={name: frozenset(spec["may_import"]) for name, spec in data["packages"].items()},
        private=tuple(data.get("private", [])),
    )


def rule_broken(
    wiring: Wiring, importer: str, imported: str, first_party: frozenset[str] = frozenset()
) -> str | None:
    """The rule an import from module `importer` of module `imported` breaks, or None.

    `first_party` names the graded tree's top-level modules and packages: a listed package may
    import only itself, the standard library and its `may_import` packages, so importing a
    module of the tree that wiring.yaml does not list (a helper next to the packages) breaks the
    rule too; otherwise such a module would launder any import. Modules wiring.yaml does not
    list (tests, scripts) are not bound by it.
    """
    source, target = importer.split(".")[0], imported.split(".")[0]
    if source == target:
        return None
    listed = source in wiring.packages
    first_party_target = target in wiring.packages or target in first_party
    if listed and first_party_target and target not in wiring.packages[source]:
        if not wiring.packages[source]:
            return f"{source} may import no other package of the repository"
        return f"{source} may import only {', '.join(sorted(wiring.packages[source]))}"
    if listed:
        for module in wiring.private:
            if imported == module or imported.startswith(module + "."):
                return f"{module} is private to {module.split('.')[0]}"
    return None
