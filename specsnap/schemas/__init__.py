"""The JSON Schemas shipped inside the package, their errors as Problems, and YAML parsing.

`tier.schema.json` and `mutants.schema.json` are written by hand; `scorecard.schema.json` is
derived from the scorecard model (`specsnap.scorecard.schema`) and kept in step with it by a test.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

import jsonschema
import yaml

from specsnap.errors import Problem, UsageError

SCHEMA_FILES = {
    "tier": "tier.schema.json",
    "mutants": "mutants.schema.json",
    "scorecard": "scorecard.schema.json",
}

# libyaml's loader where PyYAML was built with it: ten times faster, the same safe subset.
_YAML_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def parse_yaml(text: str) -> Any:
    """`text` as YAML's safe subset (plain data only); raises yaml.YAMLError."""
    return yaml.load(text, Loader=_YAML_LOADER)


def load_schema(name: str) -> dict[str, Any]:
    """One of the JSON Schemas shipped inside the package (`tier`, `mutants`, `scorecard`)."""
    if name not in SCHEMA_FILES:
        raise UsageError(f"unknown schema {name!r}; known: {', '.join(sorted(SCHEMA_FILES))}")
    text = resources.files("specsnap.schemas").joinpath(SCHEMA_FILES[name]).read_text()
    schema: dict[str, Any] = json.loads(text)
    return schema


def schema_problems(data: Any, schema: dict[str, Any], file: str) -> list[Problem]:
    """Every JSON Schema violation of `data`, as Problems with a dotted key path."""
    validator = jsonschema.Draft202012Validator(schema)
    problems = []
    for error in sorted(validator.iter_errors(data), key=lambda e: list(map(str, e.path))):
        key = ".".join(str(part) for part in error.absolute_path) or "(top level)"
        value = json.dumps(error.instance, default=str)
        if len(value) > 80:
            value = value[:77] + "..."
        problems.append(Problem(file, key, value, _expected(error)))
    return problems


def _expected(error: jsonschema.ValidationError) -> str:
    validator = error.validator
    if validator == "required":
        return error.message.replace("is a required property", "is required")
    if validator == "additionalProperties":
        return "only known keys: " + error.message
    if validator == "enum":
        return "one of " + ", ".join(str(v) for v in list(error.validator_value))  # type: ignore[arg-type]
    if validator == "const":
        return f"exactly {json.dumps(error.validator_value)}"
    if validator == "type":
        return f"a value of type {error.validator_value}"
    if validator == "pattern":
        return f"a string matching {error.validator_value}"
    return error.message
