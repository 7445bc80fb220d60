"""The part of a scorecard that publishing shows, as frozen values.

The engine owns the scorecard format and its schema (`specsnap.scorecard`); a scorecard is
validated there, every problem reported at once, before this view is built from it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from specsnap.scorecard import read_scorecard, validate_scorecard


@dataclass(frozen=True)
class TestOutcome:
    """One hidden or baseline test and how it ended (`passed`, `failed`, `error`, ...)."""

    test: str
    outcome: str


@dataclass(frozen=True)
class Requirement:
    id: str
    title: str
    package: str
    passed: bool
    tests: tuple[TestOutcome, ...]

    @property
    def failing_tests(self) -> tuple[TestOutcome, ...]:
        return tuple(t for t in self.tests if t.outcome != "passed")


@dataclass(frozen=True)
class WiringViolation:
    importer: str
    imported: str
    file: str
    line: int
    rule: str
    kind: str


@dataclass(frozen=True)
class ProtectedChange:
    path: str
    change: str


@dataclass(frozen=True)
class ProtocolBreach:
    session: int | None
    what: str


@dataclass(frozen=True)
class Gate:
    holds: bool
    baseline_failures: tuple[TestOutcome, ...]
    protected_changes: tuple[ProtectedChange, ...]
    wiring_violations: tuple[WiringViolation, ...]
    protocol_breaches: tuple[ProtocolBreach, ...] = ()


@dataclass(frozen=True)
class Scores:
    raw_retention: float
    net_retention: float
    tes: float | None
    passed: bool
    pass_threshold: float
    effective_tokens: float | None
    budget: float | None


@dataclass(frozen=True)
class Scorecard:
    """What publishing needs of one graded run. `document` is the whole JSON, for the report."""

    tier_id: str
    seed: int
    agent: str
    official: bool
    sessions: int
    requirements: tuple[Requirement, ...]
    gate: Gate
    scores: Scores
    specsnap_version: str
    head_commit: str
    scorecard_sha256: str
    document: Mapping[str, Any]

    @property
    def key(self) -> str:
        """Identifies the run's (tier, seed) cell; stable across commits, used to match bases."""
        return f"{self.tier_id}/seed-{self.seed}"

    @property
    def label(self) -> str:
        return f"{self.tier_id}, seed {self.seed}"


def parse_scorecard(document: object, source: str) -> Scorecard:
    """Validate `document` against the scorecard schema (InputError lists every problem)."""
    validate_scorecard(document, source)
    assert isinstance(document, dict)  # the schema says so
    return _build(document)


def load_scorecard(path: Path) -> Scorecard:
    """Read, validate and view `path` (a `scorecard.json`)."""
    return _build(read_scorecard(path))


def _outcomes(items: list[dict[str, Any]], key: str) -> tuple[TestOutcome, ...]:
    return tuple(TestOutcome(str(i.get(key, "?")), str(i.get("outcome", "?"))) for i in items)


def _build(doc: dict[str, Any]) -> Scorecard:
    gate, scores, receipt = doc["gate"], doc["scores"], doc["receipt"]
    return Scorecard(
        tier_id=doc["tier_id"],
        seed=doc["seed"],
        agent=doc["agent"]["name"],
        official=bool(doc.get("official", False)),
        sessions=len(doc.get("sessions", [])),
        requirements=tuple(
            Requirement(
                r["id"], r["title"], r.get("package", ""), r["passed"], _outcomes(r["tests"], "id")
            )
            for r in doc["requirements"]
        ),
        gate=Gate(
            holds=gate["holds"],
            baseline_failures=_outcomes(gate["baseline_failures"], "test"),
            protected_changes=tuple(
                ProtectedChange(str(c.get("path", "?")), str(c.get("change", "changed")))
                for c in gate["protected_changes"]
            ),
            protocol_breaches=tuple(
                ProtocolBreach(b.get("session"), str(b.get("what", b)))
                for b in gate.get("protocol_breaches", [])
            ),
            wiring_violations=tuple(
                WiringViolation(
                    v["importer"],
                    v["imported"],
                    v["file"],
                    int(v["line"] or 0),
                    v["rule"],
                    v["kind"],
                )
                for v in gate["wiring_violations"]
            ),
        ),
        scores=Scores(
            raw_retention=scores["raw_retention"],
            net_retention=scores["net_retention"],
            tes=scores["tes"],
            passed=scores["pass"],
            pass_threshold=scores["pass_threshold"],
            effective_tokens=scores.get("effective_tokens"),
            budget=scores.get("budget"),
        ),
        specsnap_version=doc.get("specsnap_version", receipt.get("specsnap_version", "")),
        head_commit=receipt.get("head_commit", ""),
        scorecard_sha256=receipt.get("scorecard_sha256", ""),
        document=doc,
    )
