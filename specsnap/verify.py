"""`specsnap verify`: check a scorecard's receipt, and with the run, regrade it byte for byte."""

from __future__ import annotations

import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from specsnap.gitrepo import GitError, export_commit, rev_parse
from specsnap.grading import grade_repository
from specsnap.params import values_for
from specsnap.receipt import canonical_json, merkle_digest, scorecard_digest, tier_digest
from specsnap.runs import load_run, session_breaches, session_records
from specsnap.scorecard import build_scorecard, read_scorecard
from specsnap.tiers import load_tier

#: The parts of a scorecard a regrade must reproduce exactly.
GRADED_KEYS = ("requirements", "gate", "scores")


@dataclass(frozen=True)
class Check:
    name: str
    ok: bool
    detail: str


@dataclass
class Verification:
    checks: list[Check] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return all(c.ok for c in self.checks)

    def add(self, name: str, ok: bool, detail: str) -> None:
        self.checks.append(Check(name, ok, detail))


def verify_scorecard(path: Path, run_dir: Path | None = None) -> Verification:
    """Every receipt check that can be made with what was given."""
    card = read_scorecard(path)
    result = Verification()
    receipt = card["receipt"]
    digest = scorecard_digest(card)
    result.add(
        "scorecard_sha256",
        digest == receipt["scorecard_sha256"],
        digest
        if digest == receipt["scorecard_sha256"]
        else f"recomputed {digest}, receipt says {receipt['scorecard_sha256']}",
    )
    for key in ("seed", "tier_id", "specsnap_version"):
        same = receipt[key] == card[key]
        result.add(f"receipt.{key}", same, f"{receipt[key]}" + ("" if same else f" ≠ {card[key]}"))
    try:
        tier = load_tier(card["tier_id"])
        now = tier_digest(tier.root)
        result.add(
            "tier_sha256",
            now == receipt["tier_sha256"],
            "matches the installed tier"
            if now == receipt["tier_sha256"]
            else f"the installed {tier.id} digests to {now}",
        )
    except Exception as exc:  # a missing tier is a finding, not a crash
        result.add("tier_sha256", False, f"cannot load {card['tier_id']}: {exc}")
    if run_dir is not None:
        _verify_against_run(card, run_dir, result)
    return result


def _verify_against_run(card: dict[str, Any], run_dir: Path, result: Verification) -> None:
    run = load_run(run_dir)
    receipt = card["receipt"]
    try:
        head = rev_parse(run.sandbox)
    except GitError:
        head = None
    result.add(
        "head_commit",
        head == receipt["head_commit"],
        f"{head}"
        + ("" if head == receipt["head_commit"] else f" ≠ receipt {receipt['head_commit']}"),
    )
    if head is not None:
        with tempfile.TemporaryDirectory(prefix="specsnap-verify-") as tmp:
            export_commit(run.sandbox, head, Path(tmp))
            tree = merkle_digest(Path(tmp))
        result.add(
            "sandbox_tree_sha256",
            tree == receipt["sandbox_tree_sha256"],
            tree
            if tree == receipt["sandbox_tree_sha256"]
            else f"recomputed {tree}, receipt says {receipt['sandbox_tree_sha256']}",
        )
    tier = run.tier
    records = session_records(run)
    params = values_for(tier, run.seed)
    grade = grade_repository(tier, run.sandbox, params, session_breaches(records))
    fresh = build_scorecard(run, tier, records, grade, grading_s=0.0)
    for key in GRADED_KEYS:
        same = canonical_json(fresh[key]) == canonical_json(card[key])
        result.add(
            f"regrade.{key}",
            same,
            "identical bytes" if same else _difference(card[key], fresh[key]),
        )


def _difference(old: Any, new: Any, where: str = "") -> str:
    if isinstance(old, dict) and isinstance(new, dict):
        for key in sorted(set(old) | set(new)):
            if old.get(key) != new.get(key):
                return _difference(old.get(key), new.get(key), f"{where}.{key}")
    if isinstance(old, list) and isinstance(new, list) and len(old) == len(new):
        for i, (a, b) in enumerate(zip(old, new, strict=True)):
            if a != b:
                return _difference(a, b, f"{where}[{i}]")
    return f"{where or '(value)'}: scorecard has {old!r}, regrade gives {new!r}"
