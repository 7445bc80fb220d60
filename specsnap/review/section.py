"""The reviews section: RUN_DIR/reviews.json, beside scorecard.json and never inside it.

It names the scorecard it reviews by the receipt's digest (`scorecard_sha256`) and holds every
submission in the order it was admitted, each entry chained to the one before: an entry's
`digest` is the sha256 of the canonical JSON of the entry without its digest, and its `previous`
is the digest before it (the first entry's is the scorecard's digest, so the chain is bound to
the scorecard). `head` is the last digest. An entry says where it came from: a GitHub comment
(repository, pull request, comment id, author, time) or a local rating file. Nothing here
changes scorecard.json, its scores or its digest; `specsnap verify` checks the section
(`check_section`): the chain, the scorecard it names, and that the rules admit every entry.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jsonschema

from specsnap.errors import UsageError
from specsnap.review.rubric import HIGHEST, KEYS, LOWEST, REASON_MAX
from specsnap.review.rules import Review, RuleError, Score, Submission, admit
from specsnap.review.signing import Signer, Verifier
from specsnap.scorecard.receipt import canonical_json

REVIEWS_FILE = "reviews.json"
FORMAT = "specsnap-reviews/1"
#: An entry's signature by the bot (specsnap.review.signing), over its digest.
SIGNED = "signed"

_SCORES = {
    "type": "object",
    "minProperties": 1,
    "propertyNames": {"enum": list(KEYS)},
    "additionalProperties": {
        "type": "object",
        "required": ["score", "reason"],
        "additionalProperties": False,
        "properties": {
            "score": {"type": "integer", "minimum": LOWEST, "maximum": HIGHEST},
            "reason": {"type": "string", "minLength": 1, "maxLength": REASON_MAX},
        },
    },
}
_SOURCE = {
    "oneOf": [
        {
            "type": "object",
            "additionalProperties": False,
            "required": ["via", "repository", "pull_request", "comment_id", "author", "at"],
            "properties": {
                "via": {"const": "github"},
                "repository": {"type": "string"},
                "pull_request": {"type": "integer"},
                "comment_id": {"type": "integer"},
                "author": {"type": "string"},
                "at": {"type": ["string", "null"]},
            },
        },
        {
            "type": "object",
            "additionalProperties": False,
            "required": ["via", "file_sha256"],
            "properties": {
                "via": {"const": "local"},
                "file_sha256": {"type": "string", "pattern": "^[0-9a-f]{64}$"},
            },
        },
    ]
}
SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "SpecSnap reviews section (reviews.json)",
    "type": "object",
    "additionalProperties": False,
    "required": ["format", "scorecard_sha256", "entries", "head"],
    "properties": {
        "format": {"const": FORMAT},
        "scorecard_sha256": {"type": "string", "pattern": "^[0-9a-f]{64}$"},
        "head": {"type": "string", "pattern": "^[0-9a-f]{64}$"},
        "entries": {
            "type": "array",
            "items": {
                "type": "object",
                "additionalProperties": False,
                "required": ["index", "previous", "reviewer", "kind", "scores", "source", "digest"],
                "properties": {
                    "index": {"type": "integer", "minimum": 0},
                    "previous": {"type": "string", "pattern": "^[0-9a-f]{64}$"},
                    "reviewer": {"type": "string", "minLength": 1},
                    "kind": {"enum": ["rating", "agreed"]},
                    "scores": _SCORES,
                    "source": _SOURCE,
                    "digest": {"type": "string", "pattern": "^[0-9a-f]{64}$"},
                    SIGNED: {"type": "string", "minLength": 1},
                },
            },
        },
    },
}


class SectionError(UsageError):
    """A reviews section that cannot be read; the message names the file and the key."""


@dataclass(frozen=True)
class Section:
    scorecard_sha256: str
    entries: tuple[Mapping[str, Any], ...]

    @property
    def head(self) -> str:
        return str(self.entries[-1]["digest"]) if self.entries else self.scorecard_sha256

    @property
    def review(self) -> Review:
        """The review the entries make (RuleError when one is refused: see check_section)."""
        review = Review()
        for entry in self.entries:
            review = admit(review, submission_of(entry))
        return review

    def document(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "scorecard_sha256": self.scorecard_sha256,
            "entries": [dict(e) for e in self.entries],
            "head": self.head,
        }


def entry_digest(entry: Mapping[str, Any]) -> str:
    """The sha256 of the entry's canonical JSON without its digest and its signature."""
    return hashlib.sha256(
        canonical_json({k: v for k, v in entry.items() if k not in ("digest", SIGNED)})
    ).hexdigest()


def submission_of(entry: Mapping[str, Any]) -> Submission:
    scores = {k: Score(int(v["score"]), str(v["reason"])) for k, v in entry["scores"].items()}
    return Submission(str(entry["reviewer"]), entry["kind"], scores)


def append(
    section: Section,
    submission: Submission,
    source: Mapping[str, Any],
    sign: Signer | None = None,
) -> Section:
    """`section` with `submission` added, once the rules admit it (RuleError otherwise); its
    digest signed by `sign` when given (the bot's)."""
    admit(section.review, submission)
    entry: dict[str, Any] = {
        "index": len(section.entries),
        "previous": section.head,
        "reviewer": submission.reviewer,
        "kind": submission.kind,
        "scores": {
            k: {"score": s.score, "reason": s.reason.strip()}
            for k, s in sorted(submission.scores.items())
        },
        "source": dict(source),
    }
    entry["digest"] = entry_digest(entry)
    if sign is not None:
        entry[SIGNED] = sign(entry["digest"])
    return Section(section.scorecard_sha256, (*section.entries, entry))


def check_section(
    section: Section, scorecard_sha256: str, verify: Verifier | None = None
) -> list[str]:
    """What is wrong with `section` as the reviews of the scorecard whose digest is
    `scorecard_sha256`: each problem names the entry; empty when intact. With `verify` (the
    bot's public key), every entry from GitHub must carry the bot's signature over its digest."""
    problems = []
    if section.scorecard_sha256 != scorecard_sha256:
        problems.append(
            f"the reviews name scorecard {section.scorecard_sha256}, not this one "
            f"({scorecard_sha256}): they review another run"
        )
    previous = section.scorecard_sha256
    review = Review()
    for n, entry in enumerate(section.entries):
        where = f"entry {n} ({entry.get('reviewer')}, {entry.get('kind')})"
        if entry.get("index") != n:
            problems.append(f"{where}: index {entry.get('index')}, expected {n}")
        if entry.get("previous") != previous:
            problems.append(f"{where}: previous digest does not follow the entry before it")
        digest = entry_digest(entry)
        if digest != entry.get("digest"):
            problems.append(
                f"{where}: recomputed digest {digest[:16]}…, recorded "
                f"{str(entry.get('digest'))[:16]}…: the entry was altered"
            )
        if verify is not None and entry.get("source", {}).get("via") == "github":
            signature = entry.get(SIGNED)
            why = "it is not signed" if not signature else verify(str(signature), digest)
            if why is not None:
                problems.append(f"{where}: {why}")
        previous = str(entry.get("digest"))
        try:
            review = admit(review, submission_of(entry))
        except RuleError as exc:
            problems.append(f"{where}: the rules refuse it: {exc}")
    return problems


def load_section(path: Path) -> Section:
    """The section at `path`; SectionError naming the file and the key when it is malformed."""
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise SectionError(f"{path}: cannot read the reviews section: {exc}") from None
    problem = jsonschema.exceptions.best_match(
        jsonschema.Draft202012Validator(SCHEMA).iter_errors(document)
    )
    if problem is not None:
        key = "/".join(str(p) for p in problem.absolute_path) or "(top level)"
        raise SectionError(f"{path}: {key}: {problem.message}")
    section = Section(document["scorecard_sha256"], tuple(document["entries"]))
    if document["head"] != section.head:
        raise SectionError(
            f"{path}: head: {document['head']} is not the last entry's digest {section.head}"
        )
    return section


def read_section(run_dir: Path, scorecard_sha256: str) -> Section:
    """The run's reviews section, or an empty one for the scorecard when it has none yet."""
    path = run_dir / REVIEWS_FILE
    return load_section(path) if path.exists() else Section(scorecard_sha256, ())


def write_section(run_dir: Path, section: Section) -> Path:
    """Write the section atomically; scorecard.json is not touched."""
    path = run_dir / REVIEWS_FILE
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(json.dumps(section.document(), indent=2, ensure_ascii=False) + "\n")
    os.replace(tmp, path)
    return path
