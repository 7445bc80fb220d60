"""The ledger's rules (pure): the hash chain, the Stage II unlock, and what may be appended.

The curriculum rule: Stage II is locked until a verified scorecard has PASS and TES ≥
0.75 on any tier. The first entry that qualifies unlocks it, and is marked so
(`unlocks_stage_2`); no later entry is. Before the unlock the ledger takes Stage I scorecards
only (a Stage II run before the unlock is a rehearsal, not an evaluation); from the unlock on,
every evaluation runs Stage II, so it takes Stage II scorecards only. Every entry is official:
an unofficial scorecard (other settings than the tier's, reported tokens, an agent that could
read the hidden tests) cannot unlock anything, nor rank.

Verified means by the ledger's own verification (`specsnap ledger append`): the entry's
`verification.checks` must name every check of REBUILD_CHECKS — the bundle's checks and a
rebuild from the run's records and a regrade — made by the SpecSnap version that made the
scorecard; a candidate without them is refused. A scorecard that came with an attestation
claims to be an Action run: it unlocks only if the attestation's signature was verified
(`attested`); one merely carried along is recorded, and ranks, but unlocks nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from specsnap.ledger.entry import GENESIS, Candidate, Entry, encode_entry, entry_digest

UNLOCK_TES = 0.75
STAGES = (1, 2)
#: The checks of the ledger's own verification (specsnap.submission.verification, and
#: `specsnap verify --run` within it) that every entry must have passed.
REBUILD_CHECKS = (
    "manifest",
    "version",
    "run",
    "tier",
    "prompts",
    "size",
    "baseline",
    "scorecard_sha256",
    "receipt.seed",
    "receipt.stage",
    "receipt.tier_id",
    "receipt.specsnap_version",
    "tier_sha256",
    "run.tier",
    "head_commit",
    "rebuild",
)


@dataclass(frozen=True)
class Ledger:
    """The entries of a ledger and the digest of each one's line (as stored)."""

    entries: tuple[Entry, ...] = ()
    digests: tuple[str, ...] = ()

    @property
    def head(self) -> str:
        """The digest the next entry must carry as `previous`."""
        return self.digests[-1] if self.digests else GENESIS

    def find(self, scorecard_sha256: str) -> Entry | None:
        return next(
            (e for e in self.entries if e.candidate.scorecard_sha256 == scorecard_sha256), None
        )

    def extended(self, entry: Entry) -> Ledger:
        return Ledger((*self.entries, entry), (*self.digests, entry_digest(encode_entry(entry))))


class Outcome(Enum):
    APPENDED = "appended"
    ALREADY = "already recorded"
    REFUSED = "refused"


@dataclass(frozen=True)
class Judgement:
    outcome: Outcome
    entry: Entry | None  # the new entry, or the one that already records the scorecard
    reasons: tuple[str, ...] = ()  # why it was refused


def qualifies(candidate: Candidate) -> bool:
    """Whether the candidate clears the bar that unlocks Stage II: a `fresh` run (the protocol's
    handoff; the agents' own resume or compaction is another track), its scores, and the checks
    the ledger made (an attestation that came with it must have had its signature verified)."""
    if candidate.handoff_mode != "fresh":
        return False
    scores = candidate.passed and candidate.tes is not None and candidate.tes >= UNLOCK_TES
    return scores and (candidate.attestation is None or is_attested(candidate))


def is_attested(candidate: Candidate) -> bool:
    """An attestation naming the scorecard came with it, and its signature was verified."""
    return candidate.attestation is not None and candidate.attestation.signature_checked


def verification_problems(candidate: Candidate) -> list[str]:
    """Why the candidate's verification is not one the ledger made (empty when it is)."""
    verification = candidate.verification
    problems = []
    missing = [c for c in REBUILD_CHECKS if c not in verification.checks]
    if missing:
        problems.append(
            "the scorecard was not rebuilt by the ledger's verification (`specsnap ledger "
            f"append`): it did not pass {', '.join(missing)}"
        )
    if verification.specsnap_version != candidate.specsnap_version:
        problems.append(
            f"the scorecard was made by SpecSnap {candidate.specsnap_version} and verified by "
            f"{verification.specsnap_version}: a rebuild by another version is no proof"
        )
    return problems


def unlocking_entry(entries: Sequence[Entry]) -> Entry | None:
    """The entry that unlocked Stage II; None while it is locked."""
    return next((e for e in entries if e.unlocks_stage_2), None)


def stage_for(entries: Sequence[Entry]) -> int:
    """The stage every evaluation runs now: 2 once unlocked, else 1."""
    return 2 if unlocking_entry(entries) is not None else 1


def refusals(unlocker: Entry | None, candidate: Candidate) -> list[str]:
    """Why a ledger whose Stage II `unlocker` is this (None: locked) cannot take `candidate`
    (empty when it can)."""
    reasons = verification_problems(candidate)
    if not candidate.official:
        why = "; ".join(candidate.unofficial_reasons) or "no reason given"
        reasons.append(f"the scorecard is not official ({why}); the ledger records official ones")
    if candidate.stage not in STAGES:
        reasons.append(f"stage {candidate.stage} is not a stage; expected 1 or 2")
    if unlocker is None and candidate.stage == 2:
        reasons.append(
            "Stage II is locked: no verified scorecard has PASS and TES ≥ 75% yet, so a Stage II "
            "run is a rehearsal, not an evaluation"
        )
    if unlocker is not None and candidate.stage == 1:
        reasons.append(
            f"Stage II was unlocked by {unlocker.label}: every evaluation since runs Stage II, "
            "and this scorecard is Stage I"
        )
    return reasons


def judge(ledger: Ledger, candidate: Candidate, recorded_at: str) -> Judgement:
    """Append `candidate` to `ledger`, or say why not; a scorecard already recorded is not
    recorded twice."""
    existing = ledger.find(candidate.scorecard_sha256)
    if existing is not None:
        return Judgement(Outcome.ALREADY, existing)
    unlocker = unlocking_entry(ledger.entries)
    reasons = refusals(unlocker, candidate)
    if reasons:
        return Judgement(Outcome.REFUSED, None, tuple(reasons))
    attested = is_attested(candidate)
    entry = Entry(
        index=len(ledger.entries),
        previous=ledger.head,
        recorded_at=recorded_at,
        candidate=candidate,
        attested=attested,
        unlocks_stage_2=unlocker is None and qualifies(candidate),
    )
    return Judgement(Outcome.APPENDED, entry)


def chain_problems(ledger: Ledger) -> list[str]:
    """Everything that shows the ledger was not built by `judge`, entry by entry: a broken link
    (an edit, insertion or deletion before the last entry), an index out of order, a scorecard
    recorded twice, an unlock mark in the wrong place, a stage, a verification or an attestation
    flag the rules would not have written."""
    problems = []
    previous = GENESIS
    seen: dict[str, int] = {}
    unlocker: Entry | None = None  # as the rules would have it, whatever the entries say
    for position, (entry, digest) in enumerate(zip(ledger.entries, ledger.digests, strict=True)):
        where = f"entry #{entry.index}"
        if entry.index != position:
            problems.append(f"{where}: is at position {position}")
        if entry.previous != previous:
            problems.append(
                f"{where}: previous is {entry.previous[:12]}…, but the entry before it "
                f"digests to {previous[:12]}…: an entry before it was changed, added or removed"
            )
        candidate = entry.candidate
        first = seen.setdefault(candidate.scorecard_sha256, entry.index)
        if first != entry.index:
            problems.append(f"{where}: records the scorecard of entry #{first} again")
        problems += [f"{where}: {reason}" for reason in refusals(unlocker, candidate)]
        should_unlock = unlocker is None and qualifies(candidate)
        if entry.unlocks_stage_2 != should_unlock:
            said = "is marked as" if entry.unlocks_stage_2 else "is not marked as"
            problems.append(
                f"{where}: {said} the entry that unlocked Stage II; the rule says it "
                + ("is" if should_unlock else "is not")
            )
        if entry.attested != is_attested(candidate):
            problems.append(f"{where}: attested is {entry.attested}; its attestation says not")
        # Go on as the rules would have written it, so that one misplaced mark is reported
        # where it is, not again at every entry after it.
        if should_unlock:
            unlocker = entry
        previous = digest
    return problems


def extension_problems(earlier: Ledger, later: Ledger) -> list[str]:
    """Whether `later` keeps every entry of `earlier`, byte for byte, in place."""
    if len(later.digests) < len(earlier.digests):
        return [
            f"the ledger has {len(later.digests)} entries; the earlier one had "
            f"{len(earlier.digests)}: entries were removed"
        ]
    return [
        f"entry #{index} differs from the earlier ledger's"
        for index, (old, new) in enumerate(zip(earlier.digests, later.digests, strict=False))
        if old != new
    ]
