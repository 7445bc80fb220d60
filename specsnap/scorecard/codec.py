"""Frozen dataclasses to JSON values and back, driven by the classes' own type hints.

A field's JSON key is its name unless `meta(key=...)` renames it (`pass` is a Python
keyword). `omit_none=True` marks a key that is absent rather than null when there is nothing to
say. Numbers are kept as JSON gave them (an int stays an int in a float field), so that loading
and dumping a scorecard reproduces it byte for byte.

Decoding is strict about what a class requires and lenient about what it does not know: keys
the class does not declare are left out (a session record carries more than a scorecard shows),
and a missing key of an optional (`X | None`) field reads as None. Scorecards are checked
against the JSON Schema before they are decoded, so that leniency only ever applies to records.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Mapping
from functools import cache
from typing import Any, Literal, TypeVar, Union, get_args, get_origin

T = TypeVar("T")

#: JSON Schema keywords a field may carry (see specsnap.scorecard.schema).
CONSTRAINTS = ("pattern", "minimum", "maximum")


class DecodeError(ValueError):
    """A value does not have the shape its class declares: where, what was found, what was
    expected (the parts of an `errors.Problem`)."""

    def __init__(self, path: str, found: str, expected: str) -> None:
        super().__init__(f"{path or '(top level)'}: got {found}; expected {expected}")
        self.path = path or "(top level)"
        self.found = found
        self.expected = expected


def meta(*, key: str | None = None, omit_none: bool = False, **constraints: Any) -> dict[str, Any]:
    """A field's metadata: its JSON key, whether None is omitted, its schema constraints.

    Use it as `field(metadata=meta(minimum=0))`."""
    unknown = set(constraints) - set(CONSTRAINTS)
    if unknown:
        raise TypeError(f"unknown constraint(s) {sorted(unknown)}; known: {CONSTRAINTS}")
    return {"key": key, "omit_none": omit_none, **constraints}


@dataclasses.dataclass(frozen=True)
class FieldSpec:
    name: str  # the attribute
    key: str  # the JSON key
    hint: Any  # the resolved type
    omit_none: bool
    constraints: Mapping[str, Any]

    @property
    def optional(self) -> bool:
        return is_optional(self.hint)


@cache
def field_specs(cls: type) -> tuple[FieldSpec, ...]:
    """The fields of dataclass `cls` with their JSON keys and resolved types."""
    hints = typing.get_type_hints(cls)
    specs = []
    for f in dataclasses.fields(cls):
        data = f.metadata
        constraints = {k: data[k] for k in CONSTRAINTS if k in data}
        specs.append(
            FieldSpec(
                f.name,
                data.get("key") or f.name,
                hints[f.name],
                bool(data.get("omit_none")),
                constraints,
            )
        )
    return tuple(specs)


def is_optional(hint: Any) -> bool:
    return _is_union(hint) and type(None) in get_args(hint)


def without_none(hint: Any) -> Any:
    """`X` for `X | None`."""
    rest = [arg for arg in get_args(hint) if arg is not type(None)]
    return rest[0] if len(rest) == 1 else Union[tuple(rest)]  # noqa: UP007


def to_json(value: Any) -> Any:
    """The JSON value of `value` (a dataclass, tuple, mapping or JSON scalar)."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        out: dict[str, Any] = {}
        for spec in field_specs(type(value)):
            item = getattr(value, spec.name)
            if item is None and spec.omit_none:
                continue
            out[spec.key] = to_json(item)
        return out
    if isinstance(value, tuple | list):
        return [to_json(item) for item in value]
    if isinstance(value, Mapping):
        return {str(k): to_json(v) for k, v in value.items()}
    return value


def from_json(cls: type[T], data: Any, path: str = "") -> T:
    """An instance of dataclass `cls` from its JSON value; DecodeError names the bad key path."""
    value: T = _decode(cls, data, path)
    return value


def _decode(hint: Any, data: Any, path: str) -> Any:
    if is_optional(hint):
        return None if data is None else _decode(without_none(hint), data, path)
    origin = get_origin(hint)
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return _decode_dataclass(hint, data, path)
    if origin is Literal:
        if data not in get_args(hint):
            raise DecodeError(path, repr(data), f"one of {list(get_args(hint))}")
        return data
    if origin is tuple:
        (item, _ellipsis) = get_args(hint)
        if not isinstance(data, list):
            raise DecodeError(path, type(data).__name__, "a list")
        return tuple(_decode(item, x, f"{path}[{i}]") for i, x in enumerate(data))
    if origin in (Mapping, dict):
        if not isinstance(data, dict):
            raise DecodeError(path, type(data).__name__, "an object")
        _key, item = get_args(hint)
        return {str(k): _decode(item, v, _join(path, str(k))) for k, v in data.items()}
    return _scalar(hint, data, path)


def _decode_dataclass(cls: type, data: Any, path: str) -> Any:
    if not isinstance(data, dict):
        raise DecodeError(path, type(data).__name__, "an object")
    values: dict[str, Any] = {}
    for spec in field_specs(cls):
        where = _join(path, spec.key)
        if spec.key not in data:
            if not spec.optional:
                raise DecodeError(where, "nothing", "a value")
            values[spec.name] = None
            continue
        values[spec.name] = _decode(spec.hint, data[spec.key], where)
    return cls(**values)


def _scalar(hint: Any, data: Any, path: str) -> Any:
    # bool is an int to Python, never to JSON; an int is a fine float (kept as it was written).
    ok = {
        bool: isinstance(data, bool),
        int: isinstance(data, int) and not isinstance(data, bool),
        float: isinstance(data, int | float) and not isinstance(data, bool),
        str: isinstance(data, str),
    }.get(hint)
    if ok is None:
        raise TypeError(f"{path}: no JSON decoding for {hint!r}")
    if not ok:
        raise DecodeError(path, repr(data), f"a value of type {hint.__name__}")
    return data


def _is_union(hint: Any) -> bool:
    return get_origin(hint) in (Union, types.UnionType)


def _join(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key
