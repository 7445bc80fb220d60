"""Module boundaries (wiring.yaml): the rules, and the static check of a tree with grimp.

The dynamic half (imports made at run time during the hidden tests) is recorded by the grading
bootstrap and judged here by the same `rule_broken` function, so both halves agree on what a
violation is.
"""

from __future__ import annotations

import shutil
import sys
import tempfile
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import yaml

from specsnap.errors import InputError, Problem
from specsnap.schemas import schema_problems

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


@dataclass(frozen=True)
class Violation:
    importer: str
    imported: str
    file: str  # repository-relative
    line: int
    rule: str
    kind: str  # "static" or "dynamic"

    def as_dict(self) -> dict[str, object]:
        return {
            "importer": self.importer,
            "imported": self.imported,
            "file": self.file,
            "line": self.line,
            "rule": self.rule,
            "kind": self.kind,
        }


def load_wiring(path: Path) -> Wiring:
    """Parse and validate a wiring.yaml; every problem is reported with file and key."""
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
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


def rule_broken(wiring: Wiring, importer: str, imported: str) -> str | None:
    """The rule an import from module `importer` of module `imported` breaks, or None."""
    source, target = importer.split(".")[0], imported.split(".")[0]
    if source not in wiring.packages or source == target:
        return None
    if target in wiring.packages and target not in wiring.packages[source]:
        allowed = ", ".join(sorted(wiring.packages[source])) or "nothing"
        return f"{source} may import only {allowed}"
    for module in wiring.private:
        if imported == module or imported.startswith(module + "."):
            return f"{module} is private to {module.split('.')[0]}"
    return None


def static_violations(wiring: Wiring, root: Path) -> list[Violation]:
    """Every import in the tree at `root` that breaks a rule, found with grimp's import graph.

    grimp reads a scratch copy of the listed packages' regular `.py` files (never a symlink), and
    files that do not parse are left out: they cannot import anything, and fail the tests anyway.
    """
    import grimp
    from grimp.exceptions import SourceSyntaxError

    with tempfile.TemporaryDirectory(prefix="specsnap-wiring-") as tmp:
        scratch = Path(tmp)
        present = _copy_sources(wiring, root, scratch)
        while present:
            try:
                with _on_sys_path(scratch):
                    graph = grimp.build_graph(*present, cache_dir=None)
                break
            except SourceSyntaxError as exc:
                bad = Path(exc.filename)
                if not bad.is_file() or not bad.is_relative_to(scratch):
                    raise
                bad.unlink()
        else:
            return []
    found = []
    for importer in sorted(graph.modules):
        for imported in sorted(graph.find_modules_directly_imported_by(importer)):
            rule = rule_broken(wiring, importer, imported)
            if rule is None:
                continue
            details = graph.get_import_details(importer=importer, imported=imported)
            for line in sorted({d["line_number"] for d in details}) or [0]:
                found.append(
                    Violation(
                        importer, imported, _module_file(root, importer), line, rule, "static"
                    )
                )
    return found


def _copy_sources(wiring: Wiring, root: Path, scratch: Path) -> list[str]:
    present = []
    for name in wiring.packages:
        package = root / name
        if package.is_symlink() or not (package / "__init__.py").is_file():
            continue
        present.append(name)
        for path in package.rglob("*.py"):
            if path.is_symlink() or not path.is_file() or any(p.is_symlink() for p in path.parents):
                continue
            target = scratch / path.relative_to(root)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, target)
    return present


def _module_file(root: Path, module: str) -> str:
    base = Path(*module.split("."))
    package_init = base / "__init__.py"
    return str(package_init if (root / package_init).is_file() else base.with_suffix(".py"))


@contextmanager
def _on_sys_path(root: Path) -> Iterator[None]:
    # grimp locates packages through the import system; nothing is imported or executed.
    saved_path, saved_modules = list(sys.path), set(sys.modules)
    sys.path.insert(0, str(root))
    sys.path_importer_cache.clear()
    try:
        yield
    finally:
        sys.path[:] = saved_path
        sys.path_importer_cache.clear()
        for name in set(sys.modules) - saved_modules:
            del sys.modules[name]
