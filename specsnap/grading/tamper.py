"""Product code that reaches for the test machinery.

The graded code runs in the same interpreter as the grader's pytest (docs/protocol.md, "Known
limits"). No product package of a tier has any business importing pytest, its internals, pluggy
or the grader's report plugin, or naming them in a string (the usual first step of reaching them
through `sys.modules` or `importlib`). Each such place is reported as a protocol breach, with
file and line, so an attempt to patch the grader from inside fails the gate instead of scoring.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

from specsnap.wiring import Wiring

MACHINERY = ("pytest", "_pytest", "pluggy", "specsnap_grade_report", "pytest_timeout")


def _names_machinery(name: str) -> bool:
    return any(name == m or name.startswith(m + ".") for m in MACHINERY)


def tamper_findings(wiring: Wiring, export: Path) -> list[dict[str, Any]]:
    """Every import or string in the listed packages that names the test machinery."""
    found = []
    for package in sorted(wiring.packages):
        root = export / package
        if root.is_symlink() or not root.is_dir():
            continue
        for path in sorted(root.rglob("*.py")):
            if path.is_symlink() or not path.is_file():
                continue
            rel = path.relative_to(export).as_posix()
            try:
                tree = ast.parse(path.read_bytes(), filename=rel)
            except (SyntaxError, ValueError):
                continue
            for node in ast.walk(tree):
                what = _machinery_use(node)
                if what:
                    line = getattr(node, "lineno", 0)
                    found.append(
                        {
                            "session": None,
                            "what": f"product code {what} ({rel}:{line})",
                            "file": rel,
                            "line": line,
                        }
                    )
    return found


def _machinery_use(node: ast.AST) -> str | None:
    if isinstance(node, ast.Import):
        for alias in node.names:
            if _names_machinery(alias.name):
                return f"imports the test machinery `{alias.name}`"
    if isinstance(node, ast.ImportFrom) and node.module and _names_machinery(node.module):
        return f"imports the test machinery `{node.module}`"
    text = (
        node.value.strip() if isinstance(node, ast.Constant) and isinstance(node.value, str) else ""
    )
    if text and _names_machinery(text):
        return f"names the test machinery `{text}` in a string"
    return None
