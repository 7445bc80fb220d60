"""Reaching a module without importing it, read statically (docs/protocol.md, Grading: module
boundaries).

A module that another one already loaded is reachable without an import statement and without
a load the subjects' audit hooks could report: through the module table (`sys.modules` in any
form but a literal lookup), by walking objects or frames (`gc.get_objects()`,
`sys._getframe().f_globals`, `__subclasses__`), through importlib's machinery other than a
literal `import_module`, or as an attribute of a first-party module the file did import
(`inventory.ledger.Ledger`, `getattr(inventory, "ledger")`). `reflective_sites` turns each of
these into an import site: the module an attribute chain names, resolved like an import, or
None where the name is computed or the access cannot be checked at all.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

#: Attributes that walk objects or frames: from any of them every loaded module is reachable.
WALKING = frozenset(
    {
        "get_objects",
        "get_referrers",
        "get_referents",
        "_getframe",
        "currentframe",
        "__globals__",
        "f_globals",
        "f_locals",
        "f_back",
        "gi_frame",
        "cr_frame",
        "ag_frame",
        "tb_frame",
        "__subclasses__",
    }
)
#: What of importlib a product may use: a literal import_module (judged as the import it is),
#: and reading resources or distribution metadata, which loads no module of the tree.
IMPORTLIB_ALLOWED = frozenset({"import_module", "resources", "metadata"})
#: Standard modules whose only use is to load code by a name or path SpecSnap cannot read.
LOADERS = frozenset({"runpy", "zipimport", "imp"})
#: A literal lookup of the module table is an import of that name (imports.import_sites).
LOOKUPS = frozenset({"get", "pop", "setdefault"})
#: The standard modules reflection goes through, whatever name a file binds them to.
REFLECTIVE = frozenset({"sys", "gc", "importlib", "inspect", "pkgutil"})


def reflective_sites(
    tree: ast.AST, package: str, modules: frozenset[str]
) -> Iterator[tuple[str | None, int]]:
    """(module reached, line) for each reflective access in `tree`; None where it cannot be
    checked. `package` is the file's package, `modules` every module name of the graded tree."""
    bound = _bindings(tree, package, modules)
    aliases = _aliases(tree)
    literal_lookups = _literal_lookups(tree, aliases)
    for node in ast.walk(tree):
        line = getattr(node, "lineno", 0)
        if isinstance(node, ast.ImportFrom):
            yield from _reflective_from(node, line)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] in LOADERS:
                    yield None, line
        elif isinstance(node, ast.Attribute):
            yield from _attribute(node, line, bound, modules, aliases, literal_lookups)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            yield from _builtin_call(node, line, bound, modules, aliases)


def _reflective_from(node: ast.ImportFrom, line: int) -> Iterator[tuple[str | None, int]]:
    base, names = node.module or "", {alias.name for alias in node.names}
    if node.level:
        return
    unchecked = {
        "sys": {"modules", "_getframe", "*"},
        "gc": WALKING | {"*"},
        "inspect": {"currentframe", "stack", "getmembers", "*"},
    }
    top, _, rest = base.partition(".")
    if (
        names & unchecked.get(base, set())
        or (base == "importlib" and names - IMPORTLIB_ALLOWED)
        or (top == "importlib" and rest and rest.split(".")[0] not in IMPORTLIB_ALLOWED)
        or top in LOADERS
    ):
        yield None, line


def _attribute(
    node: ast.Attribute,
    line: int,
    bound: dict[str, str],
    modules: frozenset[str],
    aliases: dict[str, str],
    lookups: set[int],
) -> Iterator[tuple[str | None, int]]:
    root = _root_name(node)
    std = aliases.get(node.value.id) if isinstance(node.value, ast.Name) else None
    on_bound_name = isinstance(node.value, ast.Name) and node.value.id in bound
    if (
        node.attr in WALKING
        or (node.attr == "modules" and _is_sys(node.value, aliases) and id(node) not in lookups)
        or (std == "importlib" and node.attr not in IMPORTLIB_ALLOWED)
        or (std == "pkgutil" and node.attr != "extend_path")
        or (std == "inspect" and node.attr in ("stack", "getmembers", "getmodule"))
        or (on_bound_name and node.attr == "__dict__")
    ):
        yield None, line
    elif root in bound:
        reached = _chain_module(node, bound, modules)
        if reached is not None:
            yield reached, line


def _builtin_call(
    node: ast.Call,
    line: int,
    bound: dict[str, str],
    modules: frozenset[str],
    aliases: dict[str, str],
) -> Iterator[tuple[str | None, int]]:
    name = node.func.id if isinstance(node.func, ast.Name) else ""
    target = node.args[0] if node.args else None
    if name == "vars" and isinstance(target, ast.Name) and target.id in bound:
        yield None, line
    elif name in ("getattr", "hasattr", "setattr", "delattr") and target is not None:
        attribute = node.args[1] if len(node.args) > 1 else None
        literal = (
            attribute.value
            if isinstance(attribute, ast.Constant) and isinstance(attribute.value, str)
            else None
        )
        if _is_sys(target, aliases):
            if literal is None or literal in ("modules", "_getframe"):
                yield None, line
        elif aliases.get(_root_name(target) or "") in REFLECTIVE and literal is None:
            yield None, line
        elif isinstance(target, ast.Name | ast.Attribute) and _root_name(target) in bound:
            if literal is None:
                yield None, line  # a computed attribute of a first-party module
            else:
                reached = _dotted(target, bound)
                if reached is not None:
                    yield _longest_module(f"{reached}.{literal}", modules), line


def _bindings(tree: ast.AST, package: str, modules: frozenset[str]) -> dict[str, str]:
    """Names the file binds to first-party modules by importing them: name -> module."""
    bound: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname:
                    if alias.name in modules:
                        bound[alias.asname] = alias.name
                elif alias.name.split(".")[0] in modules:
                    bound[alias.name.split(".")[0]] = alias.name.split(".")[0]
        elif isinstance(node, ast.ImportFrom):
            base = absolute(node.module or "", node.level, package)
            for alias in node.names:
                child = f"{base}.{alias.name}" if base else alias.name
                if child in modules:
                    bound[alias.asname or alias.name] = child
    return bound


def _aliases(tree: ast.AST) -> dict[str, str]:
    """Names that stand for the standard modules reflection goes through: their own names, and
    whatever `import sys as s` binds."""
    found = {name: name for name in REFLECTIVE}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname and alias.name.split(".")[0] in REFLECTIVE:
                    found[alias.asname] = alias.name.split(".")[0]
    return found


def _literal_lookups(tree: ast.AST, aliases: dict[str, str]) -> set[int]:
    """The `sys.modules` nodes of literal lookups (`sys.modules["x"]`, `.get("x")`, ...)."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Subscript) and is_sys_modules(node.value, aliases):
            if isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, str):
                found.add(id(node.value))
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in LOOKUPS
            and is_sys_modules(node.func.value, aliases)
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            found.add(id(node.func.value))
    return found


def _chain_module(
    node: ast.Attribute, bound: dict[str, str], modules: frozenset[str]
) -> str | None:
    """The deepest module an attribute chain on a bound name names, if deeper than the name."""
    dotted = _dotted(node, bound)
    if dotted is None:
        return None
    reached = _longest_module(dotted, modules)
    root = _root_name(node)
    return reached if root is not None and reached != bound[root] else None


def _dotted(node: ast.expr, bound: dict[str, str]) -> str | None:
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name) or node.id not in bound:
        return None
    return ".".join([bound[node.id], *reversed(parts)])


def _longest_module(dotted: str, modules: frozenset[str]) -> str:
    parts = dotted.split(".")
    for end in range(len(parts), 0, -1):
        if ".".join(parts[:end]) in modules:
            return ".".join(parts[:end])
    return parts[0]


def _root_name(node: ast.expr) -> str | None:
    while isinstance(node, ast.Attribute | ast.Subscript | ast.Call):
        node = node.func if isinstance(node, ast.Call) else node.value
    return node.id if isinstance(node, ast.Name) else None


def _is_sys(node: ast.expr, aliases: dict[str, str]) -> bool:
    """`sys` (or a name bound to it), or a literal `__import__("sys")`/`import_module("sys")`."""
    if isinstance(node, ast.Name):
        return aliases.get(node.id) == "sys"
    if isinstance(node, ast.Call) and node.args:
        first = node.args[0]
        return isinstance(first, ast.Constant) and first.value == "sys"
    return False


def is_sys_modules(node: ast.expr, aliases: dict[str, str] | None = None) -> bool:
    """Whether `node` is `sys.modules` (through any name bound to sys)."""
    return (
        isinstance(node, ast.Attribute)
        and node.attr == "modules"
        and _is_sys(node.value, aliases or {"sys": "sys"})
    )


def absolute(module: str, level: int, package: str) -> str | None:
    if level == 0:
        return module
    parts = package.split(".") if package else []
    if level - 1 > len(parts):
        return None
    base = parts[: len(parts) - (level - 1)]
    return ".".join([*base, module] if module else base)
