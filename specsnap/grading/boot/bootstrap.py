"""Entry point of the isolated grading interpreter (`python -I -S bootstrap.py CONFIG`).

`-I -S` keeps out the agent's sitecustomize, .pth files, PYTHON* variables and the script
directory. This file puts the grader's own pytest first on sys.path and the graded code last
(so it cannot shadow the standard library or pytest), records imports the code under test makes
at run time, runs pytest with the grader's configuration, and writes what it saw outside the
export.
"""

from __future__ import annotations

import builtins
import importlib
import importlib.util
import json
import os
import sys
from typing import Any

with open(sys.argv[1], encoding="utf-8") as _handle:
    CONFIG = json.load(_handle)

sys.path[:0] = CONFIG["grader_paths"]
sys.path.extend(CONFIG["code_paths"])
_CODE_ROOTS = tuple(os.path.join(os.path.realpath(p), "") for p in CONFIG["code_paths"])
_SEEN: set[tuple[str, str, str, int]] = set()
_REAL: dict[str, str] = {}
_original_import = builtins.__import__
_original_import_module = importlib.import_module


def _record(name: str, depth: int) -> None:
    frame = sys._getframe(depth)
    code_file = frame.f_code.co_filename
    filename = _REAL.get(code_file) or _REAL.setdefault(code_file, os.path.realpath(code_file))
    if filename.startswith(_CODE_ROOTS):
        importer = frame.f_globals.get("__name__", "?")
        _SEEN.add((importer, name, filename, frame.f_lineno))


def _recording_import(
    name: str, globals: Any = None, locals: Any = None, fromlist: Any = (), level: int = 0
) -> Any:
    module = _original_import(name, globals, locals, fromlist, level)
    if level and globals:
        try:
            name = importlib.util.resolve_name("." * level + name, globals.get("__package__"))
        except (ImportError, ValueError):
            return module
    _record(name, 2)
    for item in fromlist or ():
        if f"{name}.{item}" in sys.modules:
            _record(f"{name}.{item}", 2)
    return module


def _recording_import_module(name: str, package: str | None = None) -> Any:
    module = _original_import_module(name, package)
    _record(module.__name__, 2)
    return module


builtins.__import__ = _recording_import
importlib.import_module = _recording_import_module


def _no_network(*args: Any, **kwargs: Any) -> Any:
    raise OSError("network access is disabled while SpecSnap grades")


if CONFIG.get("network_guard"):
    # Where no network namespace can be made (e.g. Docker's default seccomp profile), refuse
    # connections in-process instead: weaker, since code under test could undo it.
    import socket

    _original_connect = socket.socket.connect

    def _guarded_connect(self: socket.socket, address: Any) -> Any:
        if self.family in (socket.AF_INET, socket.AF_INET6):
            return _no_network()
        return _original_connect(self, address)

    socket.socket.connect = _guarded_connect  # type: ignore[method-assign]
    socket.socket.connect_ex = lambda self, address: _guarded_connect(self, address)  # type: ignore[method-assign,assignment]
    socket.create_connection = _no_network  # type: ignore[assignment]

import pytest  # noqa: E402  (after sys.path is set up)

sys.path.insert(0, CONFIG["boot_dir"])
from specsnap_grade_report import GradeReport  # noqa: E402

code = pytest.main(CONFIG["pytest_args"], plugins=[GradeReport(CONFIG["report_path"])])
with open(CONFIG["imports_path"], "w", encoding="utf-8") as _out:
    json.dump(sorted(_SEEN), _out)
sys.exit(int(code))
