"""Ratings as people write them (pure): the `/specsnap review` words of a comment, and a local
ratings file (YAML) for `specsnap review RUN_DIR --rate FILE --reviewer NAME`.

Comment syntax, every rating followed by its one-line reason in double quotes:

    /specsnap review q1=4 "no copy of existing logic" q2=5 "only the two tickets" ...
    /specsnap review agreed q3=3 "we settled on 3: the helper is clear, the names are not"

The file:

    kind: rating            # or `agreed`; default rating
    ratings:
      q1: {score: 4, reason: "no copy of existing logic"}
      ...
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import jsonschema
import yaml

from specsnap.errors import UsageError
from specsnap.render.markup import code
from specsnap.review.rubric import HIGHEST, KEYS, LOWEST, REASON_MAX
from specsnap.review.rules import Kind, Score

SYNTAX = (
    '`/specsnap review q1=4 "reason" q2=5 "reason" …` (every question q1-q5, 1-5, each with a '
    'one-line reason in double quotes); `/specsnap review agreed q3=3 "reason"` for an agreed '
    "rating; `/specsnap review` alone posts the review packet"
)
_PAIR = re.compile(r'\s*(?P<key>[A-Za-z0-9_]+)\s*=\s*(?P<score>\S+?)\s+"(?P<reason>[^"]*)"')

FILE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "required": ["ratings"],
    "properties": {
        "kind": {"enum": ["rating", "agreed"]},
        "ratings": {
            "type": "object",
            "minProperties": 1,
            "propertyNames": {"enum": list(KEYS)},
            "additionalProperties": {
                "type": "object",
                "additionalProperties": False,
                "required": ["score", "reason"],
                "properties": {
                    "score": {"type": "integer", "minimum": LOWEST, "maximum": HIGHEST},
                    "reason": {
                        "type": "string",
                        "minLength": 1,
                        "maxLength": REASON_MAX,
                        "pattern": r"^[^\n]*\S[^\n]*$",
                    },
                },
            },
        },
    },
}


class RatingsError(UsageError):
    """Ratings that cannot be read; the message names the key or the words and how to fix it."""


def parse_words(words: str) -> tuple[Kind, dict[str, Score]]:
    """The kind and scores written after `/specsnap review`; RatingsError when malformed."""
    rest = words.strip()
    kind: Kind = "rating"
    if rest.split(maxsplit=1)[:1] == ["agreed"]:
        kind, rest = "agreed", rest[len("agreed") :]
    scores: dict[str, Score] = {}
    problems: list[str] = []
    position = 0
    while rest[position:].strip():
        found = _PAIR.match(rest, position)
        if found is None:
            problems.append(f"cannot read {code(rest[position:].strip()[:40])}")
            break
        position = found.end()
        key, score, reason = found["key"].lower(), found["score"], found["reason"].strip()
        if key not in KEYS:
            problems.append(f"{code(key)} is not a question (known: {', '.join(KEYS)})")
        elif key in scores:
            problems.append(f"{key} is rated twice")
        elif not score.isdigit() or not LOWEST <= int(score) <= HIGHEST:
            problems.append(f"{code(key + '=' + score)} is not a rating from {LOWEST} to {HIGHEST}")
        elif not reason:
            problems.append(f"{key} needs a reason")
        elif len(reason) > REASON_MAX:
            problems.append(f"{key}'s reason is longer than {REASON_MAX} characters")
        else:
            scores[key] = Score(int(score), reason)
    if problems:
        raise RatingsError("; ".join(problems) + f". Usage: {SYNTAX}")
    return kind, scores


def load_ratings_file(path: Path) -> tuple[Kind, dict[str, Score]]:
    """The kind and scores of a local ratings file; RatingsError naming the file and the key."""
    try:
        document = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise RatingsError(f"{path}: cannot read the ratings: {exc}") from None
    validator = jsonschema.Draft202012Validator(FILE_SCHEMA)
    problems = sorted(validator.iter_errors(document), key=lambda e: list(e.absolute_path))
    if problems:
        said = "; ".join(
            f"{'.'.join(str(p) for p in e.absolute_path) or '(top level)'}: {e.message}"
            for e in problems
        )
        raise RatingsError(
            f"{path}: {said} (expected: kind, and ratings: q1..q5 each with "
            f"score {LOWEST}-{HIGHEST} and a one-line reason)"
        )
    ratings: Mapping[str, Any] = document["ratings"]
    kind: Kind = document.get("kind", "rating")
    return kind, {k: Score(v["score"], v["reason"].strip()) for k, v in ratings.items()}
