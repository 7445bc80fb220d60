"""scorecard.json: loading through the shipped JSON Schema, dumping, sealing.

`dump_scorecard(load_scorecard(path))` gives back the file's bytes exactly: keys sorted, two-space
indent, UTF-8 without ASCII escaping, numbers as they were written, one final newline.
"""

from __future__ import annotations

import json
import os
from dataclasses import replace
from pathlib import Path
from typing import Any

from specsnap.errors import InputError, Problem, UsageError
from specsnap.schemas import load_schema, schema_problems
from specsnap.scorecard.codec import DecodeError, from_json, to_json
from specsnap.scorecard.model import Scorecard
from specsnap.scorecard.receipt import scorecard_digest


def parse_scorecard(document: Any, source: str) -> Scorecard:
    """`document` (parsed JSON) as a Scorecard; InputError lists every schema problem at once."""
    problems = schema_problems(document, load_schema("scorecard"), source)
    if problems:
        raise InputError(problems)
    try:
        return from_json(Scorecard, document)
    except DecodeError as exc:  # the schema should have said so: report it the same way
        raise InputError([Problem(source, exc.path, exc.found, exc.expected)]) from None


def load_scorecard(path: Path) -> Scorecard:
    """Read and check `path` (a scorecard.json)."""
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise UsageError(f"no scorecard at {path}") from None
    except (OSError, ValueError) as exc:
        raise UsageError(f"{path} is not a readable JSON file: {exc}") from None
    return parse_scorecard(document, str(path))


def scorecard_document(card: Scorecard) -> dict[str, Any]:
    """The scorecard as a JSON object (what scorecard.json holds)."""
    document: dict[str, Any] = to_json(card)
    return document


def dump_scorecard(card: Scorecard) -> str:
    """The text of scorecard.json."""
    return json.dumps(scorecard_document(card), indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def write_scorecard(card: Scorecard, path: Path) -> None:
    """Write `path` atomically, after checking the card against the schema."""
    text = dump_scorecard(card)
    parse_scorecard(json.loads(text), str(path))
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


def seal(card: Scorecard) -> Scorecard:
    """The card with `receipt.scorecard_sha256` set to its digest (docs/protocol.md)."""
    digest = scorecard_digest(scorecard_document(card))
    return replace(card, receipt=replace(card.receipt, scorecard_sha256=digest))


def is_timing(key: str) -> bool:
    """Timings: keys ending in `_s` or `_ms`, and the `timings` object."""
    return key.endswith(("_s", "_ms")) or key == "timings"


def without_timings(value: Any) -> Any:
    """A JSON value with every timing removed, and the digest that covers them."""
    if isinstance(value, dict):
        return {
            k: without_timings(v)
            for k, v in value.items()
            if not is_timing(k) and k != "scorecard_sha256"
        }
    if isinstance(value, list):
        return [without_timings(v) for v in value]
    return value
