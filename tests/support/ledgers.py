"""Ledger candidates for pure tests: sealed scorecards from the model, as a verification makes
them into candidates (`specsnap.submission.verification.candidate_of`).

`scorecard(...)` edits the official, passed fixture (tier-1-seed-3) into another run, seals it
again, and parses it back through the schema; `candidate(...)` is that scorecard as the ledger
sees it. Stage II scorecards do not exist in the model yet, so `stage=2` sets the candidate's
stage directly.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from specsnap.ledger.chain import REBUILD_CHECKS
from specsnap.ledger.entry import Attestation, Candidate
from specsnap.scorecard.model import Scorecard
from specsnap.submission.verification import candidate_of
from specsnap.verify import Check
from tests.support.scorecards import fixture_card

#: A verification as `specsnap ledger append` makes one: every check the ledger requires held.
CHECKS = tuple(Check(name, True, "held") for name in REBUILD_CHECKS)
BUNDLE_SHA256 = "b" * 64


def scorecard(
    *,
    tier: str = "tier-1",
    seed: int = 3,
    agent: str = "notetaker",
    options: dict[str, str] | None = None,
    net: float = 1.0,
    raw: float | None = None,
    tes: float | None = 1.0,
    passed: bool | None = None,
    official: bool = True,
) -> Scorecard:
    def edit(document: dict[str, Any]) -> None:
        document.update(tier_id=tier, seed=seed, official=official)
        document["unofficial_reasons"] = [] if official else ["token budget 1 instead of 2"]
        document["receipt"].update(tier_id=tier, seed=seed)
        document["agent"] = {"name": agent, "options": options or {}}
        document["scores"].update(
            net_retention=net,
            raw_retention=net if raw is None else raw,
            tes=tes,
            **{"pass": net >= 0.75 if passed is None else passed},
        )

    return fixture_card("tier-1-seed-3", edit)


def candidate(*, stage: int = 1, attestation: Attestation | None = None, **card: Any) -> Candidate:
    made = candidate_of(scorecard(**card), CHECKS, attestation, BUNDLE_SHA256)
    return dataclasses.replace(made, stage=stage)


def attestation(signature_checked: bool = True) -> Attestation:
    return Attestation(
        subject_sha256="c" * 64,
        predicate_type="https://slsa.dev/provenance/v1",
        repository="https://github.com/someone/agent",
        workflow="https://github.com/specsnap/specsnap/.github/workflows/evaluate.yml@refs/tags/v1",
        commit="d" * 40,
        run="https://github.com/someone/agent/actions/runs/1/attempts/1",
        signature_checked=signature_checked,
    )
