"""Small helpers shared by the per-API usage readers."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from typing import Any, TypeGuard


def count(value: object) -> int:
    """A token count as an API sent it; anything but a non-negative finite number is 0."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return 0
    if not math.isfinite(value) or value < 0:
        return 0
    return int(value)


def has_counts(usage: object, fields: Iterable[str]) -> TypeGuard[Mapping[str, Any]]:
    """Whether `usage` is a mapping with at least one of `fields` as a number."""
    if not isinstance(usage, Mapping):
        return False
    return any(
        isinstance(usage.get(key), int | float) and not isinstance(usage.get(key), bool)
        for key in fields
    )


def merge_max(merged: dict[str, int], usage: Mapping[str, Any], fields: Iterable[str]) -> None:
    """Keep, per field, the largest value seen: stream events repeat counts cumulatively."""
    for key in fields:
        if key in usage:
            merged[key] = max(merged.get(key, 0), count(usage.get(key)))
