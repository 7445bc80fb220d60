"""One entry of the curriculum ledger, and its line in the file (pure).

An entry is one line of canonical JSON (sorted keys, `,` `:` separators, UTF-8, as docs/protocol.md
hashes scorecards). Its digest is the sha256 of that line's bytes; the next entry carries it as
`previous` (the first carries `GENESIS`), so changing, inserting or deleting any entry breaks
every link after it, and a copy of an earlier ledger, or only its last digest, shows whether a
later one extends it.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from specsnap.scorecard.codec import DecodeError, from_json, meta, to_json
from specsnap.scorecard.receipt import canonical_json

GENESIS = "0" * 64
SHA256 = "^[0-9a-f]{64}$"

Scope = Literal["rebuild"]


@dataclass(frozen=True)
class Attestation:
    """The build-provenance attestation that came with the scorecard: what its statement claims,
    and whether its signature was checked (by `gh attestation verify`, before the append)."""

    subject_sha256: str = field(metadata=meta(pattern=SHA256))  # scorecard.json's file digest
    predicate_type: str
    repository: str | None  # the workflow's repository, as the statement says
    workflow: str | None  # the workflow file and ref
    commit: str | None  # the commit the workflow ran at
    run: str | None  # the workflow run (invocation id)
    signature_checked: bool


@dataclass(frozen=True)
class Verification:
    """How the scorecard was verified before it was appended."""

    scope: Scope  # rebuilt from the run's records and a regrade (`specsnap verify --run`)
    specsnap_version: str  # the SpecSnap that verified it
    checks: tuple[str, ...]  # every check made, all of which held
    submission_sha256: str = field(metadata=meta(pattern=SHA256))  # the bundle's file digest


@dataclass(frozen=True)
class Candidate:
    """A verified scorecard, as the ledger records it: what `judge` decides on."""

    scorecard_sha256: str = field(metadata=meta(pattern=SHA256))
    tier_id: str
    tier_sha256: str = field(metadata=meta(pattern=SHA256))
    seed: int
    agent: str
    agent_options: Mapping[str, str]
    stage: int
    specsnap_version: str
    head_commit: str | None
    raw_retention: float
    net_retention: float
    tes: float | None
    passed: bool
    official: bool
    unofficial_reasons: tuple[str, ...]
    attestation: Attestation | None
    verification: Verification
    #: Stage II's retention without recovery (absent from Stage I entries and older ledgers).
    retained_without_recovery: float | None = field(default=None, metadata=meta(omit_none=True))
    #: The handoff mode when not `fresh` (absent from fresh entries and older ledgers).
    handoff: str | None = field(default=None, metadata=meta(omit_none=True))

    @property
    def handoff_mode(self) -> str:
        return self.handoff or "fresh"


@dataclass(frozen=True)
class Entry:
    """A candidate the ledger took, where it took it, and whether it unlocked Stage II."""

    index: int
    previous: str = field(metadata=meta(pattern=SHA256))
    recorded_at: str  # UTC, ISO 8601 to the second
    candidate: Candidate
    attested: bool  # an attestation naming the scorecard came with it, its signature checked
    unlocks_stage_2: bool

    @property
    def label(self) -> str:
        c = self.candidate
        return f"entry #{self.index} ({c.tier_id}, seed {c.seed}, {c.agent})"


def encode_entry(entry: Entry) -> bytes:
    """The entry's line, without its newline."""
    return canonical_json(to_json(entry))


def entry_digest(line: bytes) -> str:
    """The digest the next entry carries as `previous`."""
    return hashlib.sha256(line).hexdigest()


def decode_entry(line: bytes, where: str) -> Entry:
    """The entry a line holds. ValueError says what is wrong, at `where` and which key; a line
    that is not exactly the canonical encoding of what it decodes to (extra keys, other
    spacing, escaped characters) is refused, so every byte of a line is covered by its rules."""
    try:
        data: Any = json.loads(line.decode("utf-8"))
        entry = from_json(Entry, data)
    except UnicodeDecodeError:
        raise ValueError(f"{where}: not UTF-8") from None
    except json.JSONDecodeError as exc:
        raise ValueError(f"{where}: not JSON ({exc.msg})") from None
    except DecodeError as exc:
        raise ValueError(f"{where}: {exc.path}: got {exc.found}; expected {exc.expected}") from None
    if encode_entry(entry) != line:
        raise ValueError(f"{where}: not in canonical form (or it carries keys an entry has not)")
    return entry
