"""The graded tree's classes, read statically by the judge (docs/protocol.md, Grading).

The judge never asks a subject what a name means: `subject.raises("shipping.NoRateError")` and
`subject.isinstance(ref, "catalog.InvalidGtinError")` resolve the expected class here, from the
export's source, through re-exports (`from .errors import NoRateError`, `Alias = Other`), and
the standard library's classes from the judge's own interpreter (it imports only modules that
are not the graded tree's). A subject reports only the class of what graded code raised or
returned; its ancestors are computed here too, and a subject whose reported MRO differs from
them is not believed. A class the graph cannot find or whose bases it cannot resolve (made at
run time, say) cannot be checked, so no expectation about it holds.
"""

from __future__ import annotations

import ast
import builtins
import functools
import importlib
import os
import sys
from dataclasses import dataclass, field

MAX_DEPTH = 32
#: Bases that are not classes but make one: what the class they make derives from.
CLASS_FACTORIES = {
    "typing.NamedTuple": frozenset({"builtins.tuple", "builtins.object"}),
    "typing.TypedDict": frozenset({"builtins.dict", "builtins.object"}),
}
#: Standard modules the judge may import to read a class's ancestry: a subject names the class,
#: so the judge imports nothing else (a module already imported is read as it is).
STANDARD_MODULES = frozenset(
    """
    abc argparse array asyncio base64 binascii bisect builtins calendar collections
    concurrent configparser contextlib copy csv dataclasses datetime decimal email enum
    fractions functools gzip hashlib heapq hmac http io ipaddress itertools json locale
    logging math numbers operator os pathlib pickle queue random re secrets shutil socket
    sqlite3 ssl statistics string struct subprocess tarfile tempfile textwrap threading
    time typing unicodedata urllib uuid warnings weakref xml zipfile zoneinfo
    """.split()  # noqa: SIM905
)


@dataclass
class _Module:
    classes: dict[str, list[ast.expr]] = field(default_factory=dict)  # qualname -> bases
    bindings: dict[str, tuple[str, str | None]] = field(default_factory=dict)
    # name -> (module, attribute): `from m import a` is (m, a), `import m as n` is (m, None)
    aliases: dict[str, ast.expr] = field(default_factory=dict)  # name -> `Alias = expression`


class ClassGraph:
    def __init__(self, code_paths: list[str]) -> None:
        self.modules: dict[str, _Module] = {}
        for base in code_paths:
            for module, path in _importable(base):
                if module not in self.modules:
                    self.modules[module] = _read(path, module)
        self.first_party = frozenset(m.split(".")[0] for m in self.modules)
        self._ancestors: dict[str, frozenset[str] | None] = {}

    def resolve(self, name: str) -> str | None:
        """The defining qualified name (`module.Class`) of the class `name` names, or None."""
        return self._resolve(name, 0)

    def ancestors(self, qualname: str) -> frozenset[str] | None:
        """Every class `qualname` is or derives from (its MRO, as a set), or None when it
        cannot be checked."""
        if qualname not in self._ancestors:
            self._ancestors[qualname] = None  # a cycle of bases resolves to nothing
            self._ancestors[qualname] = self._compute(qualname, 0)
        return self._ancestors[qualname]

    # -- internals ----------------------------------------------------------------------------

    def _resolve(self, name: str, depth: int) -> str | None:
        if depth > MAX_DEPTH or not name:
            return None
        if name.split(".")[0] not in self.first_party:
            return _standard(name)
        parts = name.split(".")
        for cut in range(len(parts), 0, -1):
            module = ".".join(parts[:cut])
            if module in self.modules:
                return self._in_module(module, parts[cut:], depth)
        return None

    def _in_module(self, module: str, rest: list[str], depth: int) -> str | None:
        if not rest:
            return None  # a module, not a class
        found = self.modules[module]
        for cut in range(len(rest), 0, -1):  # a nested class: Outer.Inner
            qual = ".".join(rest[:cut])
            if qual in found.classes and cut == len(rest):
                return f"{module}.{qual}"
        head, tail = rest[0], rest[1:]
        if head in found.bindings:
            target, attribute = found.bindings[head]
            dotted = ".".join([target, *([attribute] if attribute else []), *tail])
            return self._resolve(dotted, depth + 1)
        if head in found.aliases:
            dotted = self._dotted(module, found.aliases[head], depth)
            return self._resolve(".".join([dotted, *tail]), depth + 1) if dotted else None
        if f"{module}.{head}" in self.modules:
            return self._in_module(f"{module}.{head}", tail, depth + 1)
        return None

    def _dotted(self, module: str, node: ast.expr, depth: int) -> str | None:
        """The absolute dotted name an expression of `module` stands for (a Name or an
        attribute chain on one), or None."""
        parts = []
        while isinstance(node, ast.Attribute):
            parts.append(node.attr)
            node = node.value
        if not isinstance(node, ast.Name):
            return None
        found = self.modules[module]
        head = node.id
        if head in found.classes or head in found.aliases:
            base = f"{module}.{head}"
        elif head in found.bindings:
            target, attribute = found.bindings[head]
            base = f"{target}.{attribute}" if attribute else target
        elif hasattr(builtins, head):
            base = f"builtins.{head}"
        else:
            return None
        return ".".join([base, *reversed(parts)])

    def _compute(self, qualname: str, depth: int) -> frozenset[str] | None:
        if qualname.split(".")[0] not in self.first_party:
            return _standard_ancestors(qualname)
        module, qual = self._split(qualname)
        if module is None or depth > MAX_DEPTH:
            return None
        found: set[str] = {qualname}
        bases = self.modules[module].classes[qual]
        if not bases:
            found.add("builtins.object")
        for base in bases:
            if isinstance(base, ast.Subscript):  # Generic[T], a parametrised base
                base = base.value
            dotted = self._dotted(module, base, depth)
            if dotted in CLASS_FACTORIES:
                found |= CLASS_FACTORIES[dotted]
                continue
            resolved = self._resolve(dotted, depth + 1) if dotted else None
            above = self.ancestors(resolved) if resolved else None
            if above is None:
                return None
            found |= above
        return frozenset(found)

    def _split(self, qualname: str) -> tuple[str | None, str]:
        parts = qualname.split(".")
        for cut in range(len(parts) - 1, 0, -1):
            module = ".".join(parts[:cut])
            if module in self.modules and ".".join(parts[cut:]) in self.modules[module].classes:
                return module, ".".join(parts[cut:])
        return None, ""


@functools.cache
def class_graph(code_paths: tuple[str, ...]) -> ClassGraph:
    """The graph of the export at `code_paths`, read once per judge."""
    return ClassGraph(list(code_paths))


def _importable(base: str) -> list[tuple[str, str]]:
    """(module name, path) of every `.py` under `base` Python could import, sorted."""
    found = []
    for dirpath, dirnames, filenames in os.walk(base):
        rel = os.path.relpath(dirpath, base)
        parts = [] if rel == "." else rel.split(os.sep)
        if not all(p.isidentifier() for p in parts):
            dirnames[:] = []
            continue
        dirnames[:] = sorted(d for d in dirnames if d.isidentifier())
        for name in sorted(filenames):
            stem = name[:-3]
            if name.endswith(".py") and stem.isidentifier():
                module = ".".join(parts if stem == "__init__" else [*parts, stem])
                if module:
                    found.append((module, os.path.join(dirpath, name)))
    return found


def _read(path: str, module: str) -> _Module:
    found = _Module()
    try:
        with open(path, "rb") as handle:
            tree = ast.parse(handle.read(), filename=path)
    except (OSError, SyntaxError, ValueError):
        return found
    package = module if path.endswith("__init__.py") else module.rpartition(".")[0]
    _collect(tree.body, "", package, found)
    return found


def _collect(body: list[ast.stmt], prefix: str, package: str, found: _Module) -> None:
    """Classes, imports and aliases bound at module level (inside `if` and `try` too)."""
    for node in body:
        if isinstance(node, ast.ClassDef):
            qual = f"{prefix}{node.name}"
            found.classes[qual] = list(node.bases)
            _collect([n for n in node.body if isinstance(n, ast.ClassDef)], f"{qual}.", package,
                     found)  # fmt: skip
        elif prefix:
            continue
        elif isinstance(node, ast.ImportFrom):
            base = _absolute(node.module or "", node.level, package)
            for alias in node.names:
                if base is not None and alias.name != "*":
                    found.bindings[alias.asname or alias.name] = (base, alias.name)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname:
                    found.bindings[alias.asname] = (alias.name, None)
                else:
                    top = alias.name.split(".")[0]
                    found.bindings[top] = (top, None)
        elif isinstance(node, ast.Assign) and len(node.targets) == 1:
            target = node.targets[0]
            if isinstance(target, ast.Name) and isinstance(node.value, ast.Name | ast.Attribute):
                found.aliases[target.id] = node.value
        elif isinstance(node, ast.If):
            _collect(node.body + node.orelse, prefix, package, found)
        elif isinstance(node, ast.Try):
            _collect(node.body + node.orelse + node.finalbody, prefix, package, found)


def _absolute(module: str, level: int, package: str) -> str | None:
    if level == 0:
        return module
    parts = package.split(".") if package else []
    if level - 1 > len(parts):
        return None
    base = parts[: len(parts) - (level - 1)]
    return ".".join([*base, module] if module else base)


def _standard_class(name: str) -> type | None:
    """The class `name` names in the standard library, imported by the judge itself."""
    parts = name.split(".")
    for cut in range(len(parts) - 1, 0, -1):
        module = ".".join(parts[:cut])
        if module not in sys.modules and parts[0] not in STANDARD_MODULES:
            continue
        try:
            found: object = importlib.import_module(module)
        except ImportError:
            continue
        for attribute in parts[cut:]:
            found = getattr(found, attribute, None)
        return found if isinstance(found, type) else None
    return None


def _standard(name: str) -> str | None:
    found = _standard_class(name)
    return f"{found.__module__}.{found.__qualname__}" if found is not None else None


def _standard_ancestors(qualname: str) -> frozenset[str] | None:
    found = _standard_class(qualname)
    if found is None:
        return None
    return frozenset(f"{k.__module__}.{k.__qualname__}" for k in found.__mro__)
