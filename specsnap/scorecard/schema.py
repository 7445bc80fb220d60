"""The scorecard's JSON Schema, derived from the model (specsnap.scorecard.model).

The package ships the result as `specsnap/schemas/scorecard.schema.json`; a test keeps the
shipped file equal to `scorecard_schema()` (`SPECSNAP_REGENERATE=1` rewrites it), so the schema
can never drift from the classes that load and dump scorecards.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping
from typing import Any, Literal, get_args, get_origin

from specsnap.scorecard.codec import field_specs, is_optional, without_none
from specsnap.scorecard.model import Scorecard

SCHEMA_ID = "specsnap/scorecard.schema.json"
_SCALARS = {bool: "boolean", int: "integer", float: "number", str: "string"}


def scorecard_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of scorecard.json."""
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_ID,
        "title": "SpecSnap scorecard (scorecard.json)",
        **_object(Scorecard),
    }


def schema_text() -> str:
    """The schema as the package ships it."""
    return json.dumps(scorecard_schema(), indent=2, ensure_ascii=False) + "\n"


def _object(cls: type) -> dict[str, Any]:
    properties = {}
    required = []
    for spec in field_specs(cls):
        hint = without_none(spec.hint) if spec.omit_none else spec.hint
        properties[spec.key] = {**_type(hint), **spec.constraints}
        if not spec.omit_none:
            required.append(spec.key)
    schema: dict[str, Any] = {"type": "object"}
    doc = _own_doc(cls)
    if doc:
        schema["description"] = doc
    schema.update(required=required, properties=properties, additionalProperties=False)
    return schema


def _type(hint: Any) -> dict[str, Any]:
    if is_optional(hint):
        inner = _type(without_none(hint))
        if "type" in inner and isinstance(inner["type"], str) and len(inner) == 1:
            return {"type": [inner["type"], "null"]}
        if "enum" in inner:
            return {"enum": [*inner["enum"], None]}
        return {"anyOf": [inner, {"type": "null"}]}
    if dataclasses.is_dataclass(hint):
        return _object(hint)  # type: ignore[arg-type]
    origin = get_origin(hint)
    if origin is Literal:
        values = list(get_args(hint))
        return {"const": values[0]} if len(values) == 1 else {"enum": values}
    if origin is tuple:
        return {"type": "array", "items": _type(get_args(hint)[0])}
    if origin in (Mapping, dict):
        return {"type": "object", "additionalProperties": _type(get_args(hint)[1])}
    if hint in _SCALARS:
        return {"type": _SCALARS[hint]}
    raise TypeError(f"no JSON Schema for {hint!r}")


def _own_doc(cls: type) -> str | None:
    """The class's docstring on one line; None for the signature dataclasses make up."""
    doc = cls.__doc__ or ""
    if not doc or doc.startswith(f"{cls.__name__}("):
        return None
    return " ".join(doc.split())
