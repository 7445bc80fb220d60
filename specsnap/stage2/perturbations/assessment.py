"""Whether the agent detected and repaired each perturbation (docs/protocol.md, Stage II).

Judged from what SpecSnap itself recorded and graded, never from what the agent says: the
graded commit (HEAD), the grade, and the tracker's log.

- stale note: *detected* when, from the session it was planted before on, the tracker showed
  the agent the ticket the value belongs to (`tickets show ID`); *repaired* when that
  requirement passes.
- planted regression: *detected* when HEAD changes the lines the teammate's commit changed
  (or lines next to them, where a special case of the failing input goes), removes a file it
  changed, or no longer has the commit in its history; *repaired* when the regression's hidden
  checks and the visible tests it broke all pass. Work elsewhere in the same file for the
  sprint is not detection.
- lost work: *detected* when HEAD changes at least one reverted file from what it held once
  the perturbations of that gap were made; *repaired* when, in every reverted file, HEAD holds
  every line the lost edit had added (blank lines and indentation aside), or, where the lost
  edit had deleted the file, no such file.
- teammate refactor: no fault, so neither (None).

A stale note with no note to make stale (the agent kept none, or none states a value its code
lacks) is not applied, and is reported so, but still counts as a fault, neither detected nor
repaired: keeping nothing must not earn a smaller denominator than keeping notes.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from specsnap.scorecard.model import Change, Perturbation
from specsnap.tier.model import Tier

Verdict = tuple[bool | None, bool | None]

#: Baseline failures that mean the tests did not run at all, so nothing can count as repaired.
NOT_RUN = ("(grading)", "(test run)")


@dataclass(frozen=True)
class Evidence:
    """What the assessment reads: the graded commit's files, its history, the grade, and the
    tickets the tracker showed in each session."""

    head: Mapping[str, str]  # path -> blob id at HEAD
    history: frozenset[str]  # commits reachable from HEAD
    passed: Mapping[str, bool]  # requirement id -> passed
    failing: frozenset[str]  # baseline failures' test ids (hidden ids; visible as visible/ID)
    shown: Mapping[int, frozenset[str]]  # session -> tickets shown in full
    blob: Callable[[str], bytes]  # a blob's content, by id


def entry(record: Mapping[str, Any], verdict: Verdict) -> Perturbation:
    """The scorecard's entry for one perturbation record, judged `verdict` (specsnap.stage2.
    perturbations.kinds.assess judges it)."""
    detected, repaired = verdict
    return Perturbation(
        kind=record["kind"],
        session=record["session"],
        applied=bool(record["applied"]),
        what=record.get("what", ""),
        requirement=record.get("requirement"),
        commit=record.get("commit"),
        changes=tuple(Change(c["path"], c["before"], c["after"]) for c in record["changes"]),
        detected=detected,
        repaired=repaired,
    )


def counts(perturbations: Sequence[Perturbation]) -> tuple[int, int, int]:
    """(faults, detected, repaired): the faults applied, and a stale note with nothing to
    make stale (judged, False and False, though not applied)."""
    faults = [p for p in perturbations if p.detected is not None]  # judged: a fault
    return len(faults), sum(bool(p.detected) for p in faults), sum(bool(p.repaired) for p in faults)


def judge_stale_note(tier: Tier, record: Mapping[str, Any], evidence: Evidence) -> Verdict:
    req = record["requirement"]
    shown = any(req in tickets for s, tickets in evidence.shown.items() if s >= record["session"])
    return shown, bool(evidence.passed.get(req))


def touches(before: str, planted: str, now: str) -> bool:
    """Whether `now` changes lines that `planted` changed from `before`, or lines next to
    them (an insertion right before or after a changed line counts)."""
    old, mid, new = (text.splitlines() for text in (before, planted, now))
    planted_ranges = _changed(old, mid, side=1)
    return any(
        max(a, c) <= min(b, d) for a, b in _changed(mid, new, side=0) for c, d in planted_ranges
    )


def _changed(a: list[str], b: list[str], side: int) -> list[tuple[int, int]]:
    """Line ranges [start, end] that differ between `a` and `b`, in `a`'s (side 0) or `b`'s
    (side 1) numbering; an insertion or deletion is the empty range at its position."""
    ops = difflib.SequenceMatcher(a=a, b=b, autojunk=False).get_opcodes()
    return [(op[1], op[2]) if side == 0 else (op[3], op[4]) for op in ops if op[0] != "equal"]


def judge_regression(tier: Tier, record: Mapping[str, Any], evidence: Evidence) -> Verdict:
    detected = record["commit"] not in evidence.history
    for change in record["changes"]:
        now, planted = evidence.head.get(change["path"]), change["after"]
        if planted is None or now == planted:
            continue
        if now is None:
            detected = True
            continue
        texts = [
            evidence.blob(blob).decode("utf-8", "replace") if blob else ""
            for blob in (change["before"], planted, now)
        ]
        detected = detected or touches(*texts)
    checks = set(tier.stage2.regression.hidden_tests) if tier.stage2 else set()
    checks |= {f"visible/{t}" for t in (tier.stage2.regression.catches if tier.stage2 else ())}
    ran = not any(f in NOT_RUN for f in evidence.failing)
    return detected, ran and not (checks & evidence.failing)


def judge_lost_work(tier: Tier, record: Mapping[str, Any], evidence: Evidence) -> Verdict:
    changes = record["changes"]
    detected = any(evidence.head.get(c["path"]) != c.get("settled", c["after"]) for c in changes)
    return detected, bool(changes) and all(_restored(c, evidence) for c in changes)


def _restored(change: Mapping[str, Any], evidence: Evidence) -> bool:
    now = evidence.head.get(change["path"])
    if change["before"] is None:  # the lost edit had deleted the file
        return now is None
    if now is None:
        return False
    lines = {line.strip() for line in evidence.blob(now).decode("utf-8", "replace").splitlines()}
    return all(line in lines for line in change.get("lost_lines", []))
