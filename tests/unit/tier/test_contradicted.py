"""An amendment's `contradicted` checks in tier.yaml: loaded into the model, and each mistake
(a missing key, a path that leaves the repository, a pattern that is no regular expression, a
placeholder no value fills) reported with its key."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from specsnap.errors import InputError
from specsnap.tier.loading import load_tier
from specsnap.tier.model import Contradiction
from tests.unit.tier.test_loading import broken_copy


def amended(checks: list[dict[str, Any]]) -> Any:
    def edit(data: dict[str, Any]) -> None:
        data["amendments"] = [
            {"session": 2, "amends": ["REP-1"], "text": "A1.", "contradicted": checks}
        ]

    return edit


def test_checks_load_into_the_amendment(tmp_path: Path) -> None:
    check = {"says": "heavy", "pattern": r"heavy from ${heavy_from} g", "where": ["**/*.md"]}
    tier = load_tier(str(broken_copy(tmp_path, amended([check]))))
    assert tier.amendments[0].contradicted == (
        Contradiction("heavy", r"heavy from ${heavy_from} g", ("**/*.md",), None),
    )


def test_the_schema_names_a_missing_key_and_a_path_outside(tmp_path: Path) -> None:
    checks = [
        {"says": "d", "pattern": "ok", "where": ["../outside.md"]},
        {"says": "e", "pattern": "ok"},
    ]
    with pytest.raises(InputError) as info:
        load_tier(str(broken_copy(tmp_path, amended(checks))))
    keys = {p.key for p in info.value.problems}
    assert keys == {"amendments.0.contradicted.0.where.0", "amendments.0.contradicted.1"}
    assert "where" in str(info.value)


def test_a_pattern_that_is_no_regular_expression_is_named(tmp_path: Path) -> None:
    checks = [
        {"says": "a", "pattern": "(unclosed", "where": ["docs/**"]},
        {"says": "b", "pattern": "ok ${heavy_from}", "unless": "[z-a]", "where": ["docs/**"]},
    ]
    with pytest.raises(InputError) as info:
        load_tier(str(broken_copy(tmp_path, amended(checks))))
    problems = {p.key: p for p in info.value.problems}
    assert set(problems) == {
        "amendments.0.contradicted.0.pattern",
        "amendments.0.contradicted.1.unless",
    }
    assert "regular expression" in problems["amendments.0.contradicted.0.pattern"].expected


def test_an_unknown_placeholder_is_named(tmp_path: Path) -> None:
    check = {"says": "c", "pattern": "${nobody_draws_this}", "where": ["docs/**"]}
    with pytest.raises(InputError) as info:
        load_tier(str(broken_copy(tmp_path, amended([check]))))
    [problem] = info.value.problems
    assert (problem.key, problem.value) == (
        "amendments.0.contradicted.0.pattern",
        "${nobody_draws_this}",
    )
