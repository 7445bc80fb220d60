"""Module boundaries at the graded commit: every importable file, read statically, and the module
loads the subjects reported at run time, judged by one rule (wiring.rule_broken).

Static: every `.py` file that Python could import from the tier's python_path roots, in any
directory (namespace packages included), following symlinks that stay inside the tree. Each
`import`, `from … import`, and `importlib.import_module` / `__import__` / `sys.modules[…]` with a
literal name is an import site; the same calls with a computed name cannot be checked against
wiring.yaml and are reported as such. Files that do not parse cannot be imported and are skipped.

Reflection (grading.reflection): the module table in any form but a literal lookup, object and
frame walking, importlib's machinery and computed attributes of a first-party module cannot be
checked; an attribute chain on an imported first-party module is the import of the module it
names.

Dynamic: the subjects' audit hooks report each module load with the graded file and line that
caused it (grading/boot/bridge_subject.py); they are mapped to module names here.
"""

from __future__ import annotations

import ast
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from specsnap.grading.reflection import absolute, is_sys_modules, reflective_sites
from specsnap.scorecard.model import Breach, WiringViolation
from specsnap.tier.wiring import Wiring, rule_broken

#: Files that change what Python runs without being a readable source: a breach wherever they are.
FORBIDDEN_SUFFIXES = (".pyc", ".pyo", ".so", ".pyd", ".pth")
FORBIDDEN_NAMES = ("sitecustomize.py", "usercustomize.py")
DYNAMIC_CALLS = ("import_module", "__import__")
UNRESOLVABLE = "a computed import cannot be checked against wiring.yaml"


@dataclass(frozen=True)
class ModuleMap:
    """Module name ↔ file, for every importable `.py` in the export."""

    files: dict[str, str]  # module -> export-relative path (a file linked twice has two names)
    by_real_path: dict[str, tuple[str, ...]]  # resolved absolute path -> every module name

    @property
    def first_party(self) -> frozenset[str]:
        return frozenset(name.split(".")[0] for name in self.files)


def map_modules(export: Path, python_path: tuple[str, ...]) -> ModuleMap:
    root = export.resolve()
    files: dict[str, str] = {}
    by_real: dict[str, tuple[str, ...]] = {}
    for base in python_path:
        start = (export / base).resolve()
        if not start.is_relative_to(root) or not start.is_dir():
            continue
        for path, parts in _walk(start, root):
            module = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            if not module or module in files:
                continue
            files[module] = os.path.relpath(path, export)
            real = str(Path(path).resolve())
            by_real[real] = (*by_real.get(real, ()), module)
    return ModuleMap(files, by_real)


def _walk(start: Path, root: Path) -> Iterator[tuple[str, list[str]]]:
    """(path, module parts) of each importable .py under `start`, links followed inside `root`.

    A directory reached twice through links yields its files under each name, as Python would
    import them; only a cycle (a directory inside itself) stops the walk.
    """
    stack: list[tuple[Path, list[str], frozenset[str]]] = [(start, [], frozenset())]
    while stack:
        directory, prefix, ancestors = stack.pop()
        real = os.path.realpath(directory)
        if real in ancestors or not Path(real).is_relative_to(root) or len(prefix) > 32:
            continue
        try:
            entries = sorted(os.scandir(directory), key=lambda e: e.name)
        except OSError:
            continue
        for entry in entries:
            target = Path(os.path.realpath(entry.path))
            if not target.is_relative_to(root):
                continue
            if target.is_dir() and entry.name.isidentifier() and entry.name != "__pycache__":
                stack.append((Path(entry.path), [*prefix, entry.name], ancestors | {real}))
            elif target.is_file() and entry.name.endswith(".py"):
                stem = entry.name[:-3]
                if stem.isidentifier():
                    yield entry.path, [*prefix, stem]


def forbidden_files(export: Path) -> list[Breach]:
    """Compiled modules, .pth files and site customisation anywhere in the graded tree."""
    found = []
    for dirpath, dirnames, filenames in os.walk(export):
        dirnames.sort()
        for name in sorted(filenames):
            if name.endswith(FORBIDDEN_SUFFIXES) or name in FORBIDDEN_NAMES:
                rel = os.path.relpath(os.path.join(dirpath, name), export)
                what = (
                    f"the graded commit holds {rel}, which Python would run without a readable "
                    "source"
                )
                found.append(Breach(session=None, what=what, file=rel, line=0))
    return found


def static_violations(wiring: Wiring, export: Path, modules: ModuleMap) -> list[WiringViolation]:
    """Every import site in every importable file that breaks a rule of wiring.yaml."""
    found = []
    for module, rel in sorted(modules.files.items()):
        try:
            tree = ast.parse((export / rel).read_bytes(), filename=rel)
        except (SyntaxError, ValueError, OSError):
            continue
        package = module if rel.endswith("__init__.py") else module.rpartition(".")[0]
        for imported, line in import_sites(tree, package, modules):
            if imported is None:
                if module.split(".")[0] in wiring.packages:
                    found.append(WiringViolation(module, "?", rel, line, UNRESOLVABLE, "static"))
                continue
            rule = rule_broken(wiring, module, imported, modules.first_party)
            if rule is not None:
                found.append(WiringViolation(module, imported, rel, line, rule, "static"))
    return sorted(set(found), key=lambda v: (v.file, v.line, v.imported))


def import_sites(
    tree: ast.AST, package: str, modules: ModuleMap
) -> Iterator[tuple[str | None, int]]:
    """(imported module, line) for each import site; None for a name that is computed."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom):
            base = absolute(node.module or "", node.level, package)
            if base is None:
                continue
            for alias in node.names:
                child = f"{base}.{alias.name}" if base else alias.name
                yield (child if child in modules.files else base), node.lineno
        elif isinstance(node, ast.Call) and _call_name(node.func) in DYNAMIC_CALLS:
            yield _literal_import(node, package), node.lineno
        elif isinstance(node, ast.Subscript) and is_sys_modules(node.value):
            yield _literal(node.slice), node.lineno
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in ("get", "pop", "setdefault")
            and is_sys_modules(node.func.value)
        ):
            yield (_literal(node.args[0]) if node.args else None), node.lineno
    yield from reflective_sites(tree, package, frozenset(modules.files))


def _literal(node: ast.expr) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    return None


def _call_name(func: ast.expr) -> str | None:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return None


def _literal_import(node: ast.Call, package: str) -> str | None:
    name = _literal(node.args[0]) if node.args else None
    if name is None:
        return None
    if name.startswith("."):
        level = len(name) - len(name.lstrip("."))
        return absolute(name.lstrip("."), level, package)
    return name


def runtime_violations(
    wiring: Wiring, events: list[dict[str, Any]], modules: ModuleMap, export: Path
) -> list[WiringViolation]:
    """Boundary violations among the module loads the subjects reported.

    A file linked under several module names is judged under each: a tree that aliases its own
    modules gets no benefit of the doubt.
    """
    found = set()
    for event in events:
        importers = modules.by_real_path.get(str(event.get("file", "")), ())
        name = str(event.get("name", ""))
        imported = (name,) if event.get("kind") == "i" else modules.by_real_path.get(name, ())
        for importer in importers:
            for target in imported:
                rule = rule_broken(wiring, importer, target, modules.first_party)
                if rule is not None:
                    rel = modules.files[importer]
                    line = int(event.get("line", 0))
                    found.add(WiringViolation(importer, target, rel, line, rule, "dynamic"))
    return sorted(found, key=lambda v: (v.file, v.line, v.imported))
