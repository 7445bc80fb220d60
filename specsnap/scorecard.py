"""The scorecard: built from a run's records and its grade, validated, sealed, written.

Every key whose name ends in `_s` or `_ms` is a timing; everything else is a function of the
tier, the seed and what the agent did (same inputs → same bytes).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from specsnap import __version__
from specsnap.errors import InputError, UsageError
from specsnap.identity import isolation_problems, resolve_run_as
from specsnap.receipt import seal
from specsnap.scoring import compute_scores, token_trust_problems
from specsnap.tiers import Tier, load_schema, schema_problems
from specsnap.tokens import TokenUsage

if TYPE_CHECKING:
    from specsnap.grading import Grade
    from specsnap.runs import Run

SCHEMA_VERSION = 1


def build_scorecard(
    run: Run, tier: Tier, records: list[dict[str, Any]], grade: Grade, grading_s: float
) -> dict[str, Any]:
    """The sealed scorecard of a graded run."""
    budget = run.budget_tokens or tier.budget_tokens
    scores = compute_scores(
        grade.passed_flags,
        grade.gate["holds"],
        [TokenUsage.from_dict(r["tokens"]) for r in records],
        budget,
        tier.pass_threshold,
    )
    secrets = [tier.grader, tier.solution, run.run_dir / "sessions"]
    reasons = run.unofficial_reasons() + isolation_problems(resolve_run_as(), secrets)
    reasons += token_trust_problems(records)
    card: dict[str, Any] = {
        "schema_version": SCHEMA_VERSION,
        "specsnap_version": __version__,
        "tier_id": tier.id,
        "tier_name": tier.name,
        "seed": run.seed,
        "agent": {"name": run.agent, "options": dict(sorted(run.agent_options.items()))},
        "official": not reasons,
        "unofficial_reasons": reasons,
        "sessions": [_session_entry(r) for r in records],
        "requirements": grade.requirements,
        "gate": grade.gate,
        "scores": scores.as_dict(),
        "grading": grade.facts,
        "timings": {
            "sessions_s": [round(r.get("duration_s", 0.0), 3) for r in records],
            "grading_s": round(grading_s, 3),
        },
        "receipt": {
            "seed": run.seed,
            "specsnap_version": __version__,
            "tier_id": tier.id,
            "tier_sha256": run.tier_sha256,
            "head_commit": grade.head_commit,
            "sandbox_tree_sha256": grade.tree_sha256,
        },
    }
    return seal(card)


def _session_entry(record: dict[str, Any]) -> dict[str, Any]:
    keys = (
        "index",
        "prompt_sha256",
        "cutoff",
        "tokens",
        "tokens_reported",
        "egress_enforced",
        "meter",
        "web_tools",
        "exit",
        "breaches",
        "notes",
    )
    return {k: record[k] for k in keys if k in record}


def validate_scorecard(card: Any, file: str) -> None:
    """Raise InputError listing every way `card` departs from the scorecard schema."""
    problems = schema_problems(card, load_schema("scorecard"), file)
    if problems:
        raise InputError(problems)


def write_scorecard(card: dict[str, Any], run_dir: Path) -> None:
    """Write scorecard.json and scorecard.md atomically."""
    from specsnap.report import render_markdown

    validate_scorecard(card, str(run_dir / "scorecard.json"))
    for name, text in (
        ("scorecard.json", json.dumps(card, indent=2, sort_keys=True, ensure_ascii=False) + "\n"),
        ("scorecard.md", render_markdown(card)),
    ):
        tmp = run_dir / (name + ".tmp")
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, run_dir / name)


def read_scorecard(path: Path) -> dict[str, Any]:
    """A scorecard from disk, schema-checked."""
    try:
        card = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise UsageError(f"no scorecard at {path}") from None
    except ValueError as exc:
        raise UsageError(f"{path} is not JSON: {exc}") from None
    validate_scorecard(card, str(path))
    result: dict[str, Any] = card
    return result
