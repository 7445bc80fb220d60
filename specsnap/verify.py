"""`specsnap verify`: check a scorecard's receipt, and given the run, rebuild all of it.

Without the run only consistency can be checked: the scorecard's own digest, the receipt against
the fields it repeats, and the tier's digest against the installed tier. That shows the file was
not damaged and names the tier it claims; it says nothing about whether the result is true (a
forger can reseal an edited scorecard). With the run, the scorecard is rebuilt from the run's
session records and a regrade of the sandbox's HEAD by the same function the engine uses
(`specsnap.report.build_scorecard`), and every key but the timings must come out the same:
`official` and its reasons, sessions, tokens, requirements, gate, scores and grading facts.

A run may come from elsewhere (the fork recipe's artifact), so its run.json is data, not a
pointer to follow: the regrade uses the tier installed here, found by the run's tier id, and
only when the digest the run recorded is that tier's. The tier directory the run names (a path
on the machine that made it, or one an attacker chose, holding a grader that passes anything)
is never read.

Reviews (RUN_DIR/reviews.json, beside scorecard.json) are a separate section: when one is there
it is checked too (`reviews`): it must name this scorecard's digest, its chain of entries must
be intact (no rating altered, removed or reordered) and the review rules must admit every entry;
given the bot's public key, every entry from GitHub must carry the bot's signature.
It never takes part in the scorecard's own digest or rebuild.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, replace
from enum import Enum
from pathlib import Path
from typing import Any

from specsnap.review.section import REVIEWS_FILE, SectionError, check_section, load_section
from specsnap.review.signing import app_verifier
from specsnap.rundir import Run, load_run, recorded_sessions
from specsnap.runs import regrade, session_breaches
from specsnap.sandbox.gitrepo import GitError, rev_parse
from specsnap.scorecard.io import load_scorecard, scorecard_document, without_timings
from specsnap.scorecard.receipt import scorecard_digest, tier_digest
from specsnap.tier.loading import load_tier

#: How many differences a failed rebuild lists (the first one decides; the rest help).
DIFFERENCES_SHOWN = 5


class Scope(Enum):
    CONSISTENCY = "consistency"  # the file agrees with itself and with the installed tier
    REBUILD = "rebuild"  # the run's records and a regrade reproduce the scorecard


@dataclass(frozen=True)
class Check:
    name: str
    ok: bool
    detail: str


@dataclass(frozen=True)
class Verification:
    scope: Scope
    checks: tuple[Check, ...]

    @property
    def ok(self) -> bool:
        return all(c.ok for c in self.checks)

    @property
    def conclusion(self) -> str:
        """What the checks established, said plainly."""
        if self.scope is Scope.CONSISTENCY:
            return (
                "Checked consistency only (the receipt's digest, the tier's digest): this says "
                "the file is intact, not that its result is true. Give the run with --run RUN to "
                "rebuild the scorecard from the run's records and a regrade."
            )
        if self.ok:
            return "Rebuilt from the run's records and a regrade: identical but for timings."
        return "The scorecard does not match its run."


def verify_scorecard(
    path: Path, run_dir: Path | None = None, reviews_key: str | None = None
) -> Verification:
    """Every check that can be made with what was given; `reviews_key` is the bot's public key
    (PEM), which the signatures of the reviews it recorded are checked with."""
    card = load_scorecard(path)
    document = scorecard_document(card)
    reviews = _reviews(path.parent / REVIEWS_FILE, document, reviews_key)
    checks = [*_consistency(document), *reviews]
    if run_dir is None:
        return Verification(Scope.CONSISTENCY, tuple(checks))
    return Verification(Scope.REBUILD, (*checks, *_rebuild(document, run_dir)))


def _reviews(path: Path, document: dict[str, Any], key: str | None) -> list[Check]:
    """The reviews section beside the scorecard, when there is one."""
    if not path.exists():
        return []
    try:
        section = load_section(path)
    except SectionError as exc:
        return [Check("reviews", False, str(exc))]
    verify = app_verifier(key) if key is not None else None
    problems = check_section(section, scorecard_digest(document), verify)
    if problems:
        return [Check("reviews", False, "; ".join(problems))]
    review = section.review
    state = "complete" if review.complete else f"{len(review.raters)} reviewer(s), not complete"
    signed = "the bot's signatures hold" if key is not None else "signatures not checked"
    detail = (
        f"{len(section.entries)} entries chained to this scorecard, head {section.head[:16]}; "
        f"{signed}; {state}"
    )
    return [Check("reviews", True, detail)]


def _consistency(document: dict[str, Any]) -> list[Check]:
    receipt = document["receipt"]
    digest = scorecard_digest(document)
    said = receipt["scorecard_sha256"]
    checks = [
        Check(
            "scorecard_sha256",
            digest == said,
            digest if digest == said else f"recomputed {digest}, the receipt says {said}",
        )
    ]
    for key in ("seed", "stage", "tier_id", "specsnap_version", "handoff"):
        if key == "handoff" and key not in receipt and key not in document:
            continue  # from before handoff modes: fresh
        same = receipt.get(key) == document.get(key)
        detail = f"{receipt.get(key)}" + ("" if same else f" ≠ {document.get(key)}")
        checks.append(Check(f"receipt.{key}", same, detail))
    try:
        now = tier_digest(load_tier(document["tier_id"]).root)
    except Exception as exc:  # a tier that cannot be found is a finding, not a crash
        return [*checks, Check("tier_sha256", False, f"cannot load {document['tier_id']}: {exc}")]
    same = now == receipt["tier_sha256"]
    detail = "matches the installed tier" if same else f"the installed tier digests to {now}"
    return [*checks, Check("tier_sha256", same, detail)]


def _rebuild(document: dict[str, Any], run_dir: Path) -> list[Check]:
    run, tier_check = _with_installed_tier(load_run(run_dir), document)
    if not tier_check.ok:
        return [tier_check]  # another grader's verdict is no verdict: nothing is regraded
    try:
        head = rev_parse(run.sandbox)
    except GitError:
        head = None
    said = document["receipt"]["head_commit"]
    checks = [
        tier_check,
        Check("head_commit", head == said, f"{head}" + ("" if head == said else f" ≠ {said}")),
    ]
    recorded = recorded_sessions(run)
    fresh = regrade(run, recorded, session_breaches(recorded, run), time.monotonic())
    differences = differences_between(
        without_timings(document), without_timings(scorecard_document(fresh))
    )
    if not differences:
        return [*checks, Check("rebuild", True, "identical but for timings")]
    more = len(differences) - DIFFERENCES_SHOWN
    detail = "; ".join(differences[:DIFFERENCES_SHOWN]) + (f"; and {more} more" if more > 0 else "")
    return [*checks, Check("rebuild", False, detail)]


def _with_installed_tier(run: Run, document: dict[str, Any]) -> tuple[Run, Check]:
    """`run` pointed at the tier installed here, and whether it is the tier the run was made
    with (same id as the scorecard's, same digest as the run recorded)."""
    if run.tier_id != document["tier_id"]:
        detail = f"the run is of {run.tier_id}, the scorecard of {document['tier_id']}"
        return run, Check("run.tier", False, detail)
    try:
        installed = load_tier(run.tier_id)
    except Exception as exc:  # no such tier here is a finding, not a crash
        return run, Check("run.tier", False, f"cannot load {run.tier_id} here: {exc}")
    digest = tier_digest(installed.root)
    if digest != run.tier_sha256:
        detail = (
            f"the run was made with a {run.tier_id} digesting to {run.tier_sha256}, the "
            f"installed one digests to {digest}"
        )
        return run, Check("run.tier", False, detail)
    detail = f"the installed {run.tier_id}, with the digest the run recorded"
    if Path(run.tier_dir).resolve() != installed.root.resolve():
        detail += f" (the run names {run.tier_dir}, which is not used)"
    return replace(run, tier_dir=str(installed.root)), Check("run.tier", True, detail)


def differences_between(card: Any, rebuilt: Any, where: str = "") -> list[str]:
    """Each key path where `card` and `rebuilt` differ, in document order, with both values."""
    if isinstance(card, dict) and isinstance(rebuilt, dict):
        found = []
        for key in sorted(set(card) | set(rebuilt)):
            path = f"{where}.{key}" if where else key
            if key not in rebuilt:
                found.append(f"{path}: only in the scorecard")
            elif key not in card:
                found.append(f"{path}: missing from the scorecard")
            else:
                found += differences_between(card[key], rebuilt[key], path)
        return found
    if isinstance(card, list) and isinstance(rebuilt, list) and len(card) == len(rebuilt):
        return [
            d
            for i, (a, b) in enumerate(zip(card, rebuilt, strict=True))
            for d in differences_between(a, b, f"{where}[{i}]")
        ]
    if json.dumps(card, sort_keys=True) == json.dumps(rebuilt, sort_keys=True):
        return []
    return [
        f"{where or '(top level)'}: the scorecard has {_short(card)}, the rebuild gives "
        f"{_short(rebuilt)}"
    ]


def _short(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False, sort_keys=True)
    return text if len(text) <= 80 else text[:77] + "..."
