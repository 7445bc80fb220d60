"""Trust v3, class 2: the judge resolves the classes tests expect from the graded source alone.
Every name the real tiers' hidden tests expect resolves on the reference solution, through
re-exports; ancestry is the source's; a class made at run time cannot be checked."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "specsnap" / "grading" / "boot"))
from class_graph import ClassGraph

from specsnap.tier.loading import load_tier
from tests.conftest import ROOT
from tests.support.repos import starter_repo

EXPECTED = re.compile(r"""subject\.(?:raises|isinstance)\((?:[^,()]*, )?["']([\w.]+)["']""")


@pytest.mark.parametrize("tier_id", ["tier-1", "tier-2", "tier-3", "tier-4"])
def test_every_class_a_hidden_test_expects_resolves_on_the_reference(
    tmp_path: Path, tier_id: str
) -> None:
    tier = load_tier(str(ROOT / "tiers" / tier_id))
    export = starter_repo(tier, tmp_path / "export", [r.id for r in tier.requirements])
    graph = ClassGraph([str(export / p) for p in tier.python_path])
    names = set()
    for test in sorted(tier.grader.rglob("*.py")):
        names |= set(EXPECTED.findall(test.read_text()))
    assert names, "the graders name no class"
    for name in sorted(names):
        defining = graph.resolve(name)
        assert defining is not None, name
        ancestors = graph.ancestors(defining)
        assert ancestors is not None and defining in ancestors, name
        assert "builtins.BaseException" in ancestors or "builtins.object" in ancestors, name


def test_re_exports_aliases_and_ancestry_come_from_the_source(tmp_path: Path) -> None:
    pkg = tmp_path / "shop"
    pkg.mkdir()
    (pkg / "__init__.py").write_text(
        "from .errors import ShopError as ShopError, NoRate\nfrom . import errors\n"
        "Legacy = errors.NoRate\n"
    )
    (pkg / "errors.py").write_text(
        "class ShopError(ValueError):\n    pass\n\n"
        "class NoRate(ShopError):\n    class Detail(KeyError):\n        pass\n\n"
        "def make():\n    return type('Made', (ShopError,), {})\n\n"
        "Made = make()\n"
    )
    graph = ClassGraph([str(tmp_path)])
    assert graph.resolve("shop.NoRate") == "shop.errors.NoRate"
    assert graph.resolve("shop.Legacy") == "shop.errors.NoRate"
    assert graph.resolve("shop.errors.NoRate.Detail") == "shop.errors.NoRate.Detail"
    assert graph.resolve("builtins.ValueError") == "builtins.ValueError"
    assert graph.resolve("shop.missing") is None
    ancestors = graph.ancestors("shop.errors.NoRate")
    assert ancestors is not None
    assert {"shop.errors.ShopError", "builtins.ValueError", "builtins.Exception"} <= ancestors
    assert "builtins.RuntimeError" not in ancestors
    assert graph.ancestors("shop.errors.Made") is None  # made at run time: cannot be checked
    assert graph.ancestors("antigravity.Anything") is None  # the judge imports no such module
    assert "antigravity" not in sys.modules
