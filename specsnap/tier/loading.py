"""Tiers: finding them and loading tier.yaml through its JSON Schema into the tier model, with
every problem (schema, files, templates) reported at once."""

from __future__ import annotations

import json
import os
import re
from functools import cache
from pathlib import Path
from typing import Any

import yaml

from specsnap.errors import InputError, Problem, UsageError
from specsnap.schemas import load_schema, parse_yaml, schema_problems
from specsnap.tier.draws import values_for
from specsnap.tier.model import (
    Amendment,
    Contradiction,
    Refactor,
    Regression,
    Requirement,
    Stage2Material,
    Tier,
)
from specsnap.tier.params import PLACEHOLDER, param_from_spec, placeholders
from specsnap.tier.wiring import load_wiring


def tiers_dir() -> Path:
    """Where tiers live: $SPECSNAP_TIERS_DIR, else the `tiers/` beside the package's source tree."""
    env = os.environ.get("SPECSNAP_TIERS_DIR")
    candidates = [Path(env)] if env else []
    candidates += [Path(__file__).resolve().parents[2] / "tiers", Path("/opt/specsnap/tiers")]
    for candidate in candidates:
        if candidate.is_dir():
            return candidate.resolve()
    raise UsageError(
        "no tiers directory found; set SPECSNAP_TIERS_DIR to the folder holding tier-N/ folders"
    )


def list_tiers() -> list[str]:
    """Ids of every tier directory with a tier.yaml, in numeric order."""
    found = [p.name for p in tiers_dir().iterdir() if (p / "tier.yaml").is_file()]
    return sorted(found, key=lambda name: (len(name), name))


def resolve_tier_dir(ref: str) -> Path:
    """`2`, `tier-2` or a path to a tier directory → the tier directory.

    A bare name is always an installed tier, never a directory of that name where SpecSnap
    happens to run: only a reference with a `/` in it is a path.
    """
    path = Path(ref)
    if "/" in ref and (path / "tier.yaml").is_file():
        return path.resolve()
    name = f"tier-{ref}" if ref.isdigit() else ref
    candidate = tiers_dir() / name
    if (candidate / "tier.yaml").is_file():
        return candidate
    known = ", ".join(list_tiers())
    raise UsageError(
        f"unknown tier {ref!r}; known tiers: {known} (a tier directory is given as a path "
        "with a /, e.g. ./my-tier)"
    )


def load_tier(ref: str | Path) -> Tier:
    """Load and validate a tier; every problem in its tier.yaml is reported at once."""
    return _load_tier_dir(resolve_tier_dir(str(ref)))


@cache
def _load_tier_dir(root: Path) -> Tier:
    manifest = root / "tier.yaml"
    try:
        data = parse_yaml(manifest.read_text(encoding="utf-8"))
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"line {mark.line + 1}" if mark else "?"
        raise InputError([Problem(str(manifest), where, "invalid YAML", str(exc))]) from None
    problems = schema_problems(data, load_schema("tier"), str(manifest))
    if problems:
        raise InputError(problems)
    problems = _semantic_problems(data, root, str(manifest))
    if problems:
        raise InputError(problems)
    tier = _build(data, root)
    problems = _template_problems(tier, str(manifest))
    if problems:
        raise InputError(problems)
    return tier


def _semantic_problems(data: dict[str, Any], root: Path, file: str) -> list[Problem]:
    problems: list[Problem] = []

    def problem(key: str, value: object, expected: str) -> None:
        problems.append(Problem(file, key, json.dumps(value, default=str), expected))

    if data["id"] != root.name:
        problem("id", data["id"], f"the tier directory's name, {root.name!r}")
    for key in ("starter", "grader", "solution"):
        if not (root / data[key]).is_dir():
            problem(key, data[key], f"a directory inside {root}")
    for key, rel in data["prompts"].items():
        path = root / rel
        if not path.is_file():
            problem(f"prompts.{key}", rel, "an existing file")
        elif "{sprint}" not in path.read_text(encoding="utf-8") and (
            key == "product_note" or data["cutoff"]["arm"] == "session_start"
        ):
            problem(f"prompts.{key}", rel, "a template containing the placeholder {sprint}")
    if data["cutoff"]["arm"] == "baseline_commit" and "product_note" not in data["prompts"]:
        problem(
            "prompts", sorted(data["prompts"]), "a product_note when cutoff.arm is baseline_commit"
        )
    seen: dict[str, str] = {}
    ids = [r["id"] for r in data["requirements"]]
    for i, req in enumerate(data["requirements"]):
        if ids.count(req["id"]) > 1:
            problem(f"requirements.{i}.id", req["id"], "an id used by one requirement only")
        for dep in req.get("depends_on", []):
            if dep not in ids or dep == req["id"]:
                problem(f"requirements.{i}.depends_on", dep, "the id of another requirement")
        for j, node in enumerate(req["tests"]):
            _check_node(root / data["grader"], node, f"requirements.{i}.tests.{j}", seen, problem)
    for j, node in enumerate(data["baseline"]["hidden_tests"]):
        _check_node(root / data["grader"], node, f"baseline.hidden_tests.{j}", seen, problem)
    for j, rel in enumerate(data["baseline"]["visible_tests"]):
        if not (root / data["starter"] / rel).exists():
            problem(f"baseline.visible_tests.{j}", rel, "a path inside the starter")
    for i, amendment in enumerate(data.get("amendments", [])):
        if amendment["session"] > data["sessions"]:
            problem(f"amendments.{i}.session", amendment["session"], "a session of this tier")
        for dep in amendment["amends"]:
            if dep not in ids:
                problem(f"amendments.{i}.amends", dep, "the id of a requirement")
        for j, check in enumerate(amendment.get("contradicted", [])):
            for key in ("pattern", "unless"):
                if key in check and (error := _regex_error(check[key])) is not None:
                    where = f"amendments.{i}.contradicted.{j}.{key}"
                    problem(where, check[key], f"a Python regular expression ({error})")
    if "stage2" in data:
        _stage2_problems(data["stage2"], root, data, seen, problem)
    if not (root / data["starter"] / "wiring.yaml").is_file():
        problem("starter", data["starter"], "a starter holding wiring.yaml")
    declared: dict[str, str] = {}
    for i, req in enumerate(data["requirements"]):
        for name in req.get("params", {}):
            if name in declared:
                problem(
                    f"requirements.{i}.params.{name}",
                    name,
                    f"a name not also used by {declared[name]}",
                )
            declared[name] = req["id"]
    return problems


def _stage2_problems(
    stage2: dict[str, Any], root: Path, data: dict[str, Any], seen: dict[str, str], problem: Any
) -> None:
    """Stage II material: its files exist, its hidden checks are tests of their own, what the
    regression must break is a visible test, and the refactor moves starter files."""
    regression, refactor = stage2["regression"], stage2["refactor"]
    for key in ("patch", "root_cause", "special_case"):
        if not (root / regression[key]).is_file():
            problem(f"stage2.regression.{key}", regression[key], f"a file inside {root}")
    if not (root / refactor["patch"]).is_file():
        problem("stage2.refactor.patch", refactor["patch"], f"a file inside {root}")
    for key in ("hidden_tests", "keeps"):
        for j, node in enumerate(regression[key]):
            _check_node(root / data["grader"], node, f"stage2.regression.{key}.{j}", seen, problem)
    starter = root / data["starter"]
    for j, node in enumerate(regression["catches"]):
        if not (starter / node.split("::", 1)[0]).is_file():
            problem(f"stage2.regression.catches.{j}", node, f"a visible test under {starter}")
    for old, new in refactor["moves"].items():
        if not (starter / old).is_file():
            problem(f"stage2.refactor.moves.{old}", old, "a file of the starter to move")
        if (starter / new).exists():
            problem(f"stage2.refactor.moves.{old}", new, "a path the starter does not have")


def _template_problems(tier: Tier, file: str) -> list[Problem]:
    """Every `${name}` in the tier's texts must name a drawn or derived value."""
    try:
        known = set(values_for(tier, 0))
    except Exception as exc:  # the tier's own parameters.py failed: say where
        return [
            Problem(str(tier.root / "parameters.py"), "derive", repr(exc), "a working derive()")
        ]
    texts = {
        "sprint.preamble": tier.sprint_preamble,
        "prompts.session_1": tier.session1_prompt,
        "prompts.product_note": tier.product_note or "",
    }
    for i, req in enumerate(tier.requirements):
        texts[f"requirements.{i}.text"] = req.text
        texts[f"requirements.{i}.title"] = req.title
    for i, amendment in enumerate(tier.amendments):
        texts[f"amendments.{i}.text"] = amendment.text
        for j, check in enumerate(amendment.contradicted):
            texts[f"amendments.{i}.contradicted.{j}.pattern"] = check.pattern
    problems = []
    for key, text in texts.items():
        for name in sorted(placeholders(text) - known):
            problems.append(Problem(file, key, "${" + name + "}", "a declared or derived value"))
    return problems


def _regex_error(pattern: str) -> str | None:
    """Why `pattern` (its placeholders standing for a word) does not compile, or None."""
    try:
        re.compile(PLACEHOLDER.sub("x", pattern))
    except re.error as exc:
        return str(exc)
    return None


def _check_node(grader: Path, node: str, key: str, seen: dict[str, str], problem: Any) -> None:
    if node in seen:
        problem(key, node, f"a test used once (also at {seen[node]})")
    seen[node] = key
    if not (grader / node.split("::", 1)[0]).is_file():
        problem(key, node, f"a node id whose file exists under {grader}")


def _build(data: dict[str, Any], root: Path) -> Tier:
    prompts = data["prompts"]
    cutoff = data["cutoff"]
    starter = root / data["starter"]
    return Tier(
        id=data["id"],
        name=data["name"],
        summary=data["summary"],
        root=root,
        sessions=data["sessions"],
        python_path=tuple(data.get("python_path", ["."])),
        starter=starter,
        grader=root / data["grader"],
        solution=root / data["solution"],
        session1_prompt=(root / prompts["session_1"]).read_text(encoding="utf-8"),
        product_note=(
            (root / prompts["product_note"]).read_text(encoding="utf-8")
            if "product_note" in prompts
            else None
        ),
        cutoff_arm=cutoff["arm"],
        watch=tuple(cutoff["watch"]),
        sprint_title=data["sprint"]["title"],
        sprint_preamble=data["sprint"]["preamble"].strip(),
        requirements=tuple(
            Requirement(
                id=r["id"],
                title=r["title"],
                package=r["package"],
                text=r["text"].strip(),
                tests=tuple(r["tests"]),
                depends_on=tuple(r.get("depends_on", [])),
                params=tuple(param_from_spec(k, v) for k, v in r.get("params", {}).items()),
            )
            for r in data["requirements"]
        ),
        hidden_baseline=tuple(data["baseline"]["hidden_tests"]),
        visible_tests=tuple(data["baseline"]["visible_tests"]),
        visible_count=data["baseline"]["visible_count"],
        protected=tuple(data["protected"]),
        budget_tokens=data["budget_tokens"],
        pass_threshold=float(data.get("pass_threshold", 0.75)),
        time_limit_s=data["time_limit_s"],
        test_timeout_s=data.get("test_timeout_s", 30),
        amendments=tuple(
            Amendment(
                a["session"],
                tuple(a["amends"]),
                a["text"].strip(),
                tuple(
                    Contradiction(c["says"], c["pattern"], tuple(c["where"]), c.get("unless"))
                    for c in a.get("contradicted", [])
                ),
            )
            for a in data.get("amendments", [])
        ),
        wiring=load_wiring(starter / "wiring.yaml"),
        stage2=_stage2(data["stage2"], root) if "stage2" in data else None,
    )


def _stage2(data: dict[str, Any], root: Path) -> Stage2Material:
    regression, refactor = data["regression"], data["refactor"]
    return Stage2Material(
        regression=Regression(
            patch=root / regression["patch"],
            message=regression["message"],
            root_cause=root / regression["root_cause"],
            special_case=root / regression["special_case"],
            hidden_tests=tuple(regression["hidden_tests"]),
            catches=tuple(regression["catches"]),
            keeps=tuple(regression["keeps"]),
        ),
        refactor=Refactor(
            patch=root / refactor["patch"],
            message=refactor["message"],
            moves=dict(refactor["moves"]),
        ),
    )
