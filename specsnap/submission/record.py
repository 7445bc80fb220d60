"""`specsnap ledger append BUNDLE`: verify a submission, then let the ledger judge it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from specsnap.ledger.chain import Outcome
from specsnap.ledger.entry import Entry
from specsnap.ledger.store import append_candidate, load_ledger
from specsnap.submission.verification import (
    SubmissionReport,
    scorecard_digest_of,
    verify_submission,
)


@dataclass(frozen=True)
class Recording:
    """What became of a submission: appended (the new entry), already recorded (the entry that
    records it; not verified again), or refused (why)."""

    outcome: Outcome
    entry: Entry | None
    reasons: tuple[str, ...]
    report: SubmissionReport | None


def record_submission(
    ledger_path: Path,
    bundle: Path,
    *,
    attestation_verified: bool = False,
    now: Callable[[], datetime] | None = None,
) -> Recording:
    """Verify `bundle` and append its scorecard to the ledger at `ledger_path` if the ledger's
    rules take it. A broken ledger is refused before anything is verified."""
    existing = load_ledger(ledger_path).find(scorecard_digest_of(bundle))
    if existing is not None:
        return Recording(Outcome.ALREADY, existing, (), None)
    report = verify_submission(bundle, attestation_verified=attestation_verified)
    if report.candidate is None or not report.ok:
        failed = ", ".join(c.name for c in report.checks if not c.ok)
        reason = f"the submission does not verify (failed: {failed}; the checks say why)"
        return Recording(Outcome.REFUSED, None, (reason,), report)
    judgement = append_candidate(ledger_path, report.candidate, now)
    return Recording(judgement.outcome, judgement.entry, judgement.reasons, report)
