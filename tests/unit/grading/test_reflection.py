"""Trust v3, class 3: reaching a module without importing it is judged statically. Each hostile
form, in a package wiring.yaml lists, is a violation; the honest forms real code uses are not."""

from __future__ import annotations

import ast

import pytest

from specsnap.grading.imports import ModuleMap, import_sites

MODULES = ModuleMap(
    files={
        "units": "units/__init__.py",
        "units.convert": "units/convert.py",
        "units._table": "units/_table.py",
        "report": "report/__init__.py",
        "report.lines": "report/lines.py",
    },
    by_real_path={},
)


def sites(code: str) -> set[str | None]:
    return {name for name, _line in import_sites(ast.parse(code), "report", MODULES)}


@pytest.mark.parametrize(
    "code",
    [
        "from sys import modules as m\nm['units._table']",
        "import sys\ngetattr(sys, 'modules')['units._table']",
        "import sys\n[v for k, v in sys.modules.items() if k.endswith('_table')]",
        "import sys as s\ns.modules['units.' + '_table']",
        "import gc\n[o for o in gc.get_objects() if getattr(o, '__name__', '') == 'x']",
        "from gc import get_objects",
        "import sys\nsys._getframe(1).f_globals",
        "import importlib.util\nimportlib.util.spec_from_file_location('t', 'units/_table.py')",
        "from importlib.machinery import SourceFileLoader",
        "import importlib\nimportlib.reload(x)",
        "import runpy\nrunpy.run_path('units/_table.py')",
        "import pkgutil\npkgutil.resolve_name('units._table')",
        "import units\ngetattr(units, '_ta' + 'ble')",
        "import units\nvars(units)['_table']",
        "import units\nunits.__dict__['_table']",
        "object.__subclasses__()",
    ],
)
def test_a_reflective_access_cannot_be_checked(code: str) -> None:
    assert None in sites(code), code


@pytest.mark.parametrize(
    "code",
    [
        "import units\nunits._table.SYMBOLS",
        "import units\ngetattr(units, '_table').SYMBOLS",
        "import units as u\nu._table.SYMBOLS",
        "from units import convert\nconvert.__name__\nimport units\nunits._table",
    ],
)
def test_an_attribute_chain_on_an_imported_module_is_the_import_it_names(code: str) -> None:
    assert "units._table" in sites(code), code


@pytest.mark.parametrize(
    "code",
    [
        "import sys\nsys.modules['units.convert']",
        "import sys\nsys.modules.get('units')",
        "import sys\nsys.argv, sys.path, sys.version_info, getattr(sys, 'platform')",
        "import importlib\nimportlib.import_module('units.convert')",
        "from importlib import resources, metadata\nresources.files('units')",
        "from units import convert\nconvert.to_grams(1, 'kg')",
        "import units\nunits.convert.to_grams(1, 'kg')",
        "class A:\n    def f(self):\n        return self.__dict__, vars(self), getattr(self, 'x')",
        "import inspect\ninspect.signature(len)",
    ],
)
def test_honest_code_is_judged_as_what_it_imports(code: str) -> None:
    assert None not in sites(code), code
    assert "units._table" not in sites(code), code
