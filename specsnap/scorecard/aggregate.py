"""The multi-seed summary: per (tier, agent, stage, handoff mode), how many runs, their mean raw
and net retention, Stage II's retention without recovery and TES with a confidence interval, and how
many passed.

`specsnap aggregate` prints it and the leaderboard page shows it; scorecards and ledger entries
both become `Result`s first. Intervals are the seeded percentile bootstrap of
`specsnap.scorecard.spread` (the one the pull-request comment uses for changes against the base),
so the same results always give the same interval. With fewer than `MIN_RUNS` runs no interval
is given: a percentile bootstrap over one or two values claims a certainty it does not have.
"""

from __future__ import annotations

import re
import statistics
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from specsnap.errors import UsageError
from specsnap.scorecard.io import load_scorecard, scorecard_document
from specsnap.scorecard.model import HANDOFF_MODES, Scorecard
from specsnap.scorecard.receipt import scorecard_digest
from specsnap.scorecard.spread import CONFIDENCE, MIN_PAIRS, RESAMPLES, bootstrap_interval

MIN_RUNS = MIN_PAIRS
BOOTSTRAP_SEED = 0


@dataclass(frozen=True)
class Result:
    """One graded run, as far as the summary needs it."""

    tier_id: str
    agent: str  # the adapter's name with its options (`agent_label`)
    stage: int
    seed: int
    raw_retention: float
    net_retention: float
    tes: float | None
    passed: bool
    retained_without_recovery: float | None = None  # Stage II only
    handoff: str = "fresh"  # runs of different handoff modes are never summarized together


@dataclass(frozen=True)
class Estimate:
    """The mean of `count` values and its confidence interval (None below MIN_RUNS values)."""

    count: int
    mean: float | None  # None when there is no value at all
    low: float | None
    high: float | None


@dataclass(frozen=True)
class Summary:
    """Every run of one tier by one agent in one stage and handoff mode."""

    tier_id: str
    agent: str
    stage: int
    seeds: tuple[int, ...]  # one per run, sorted (a seed run twice is listed twice)
    raw_retention: Estimate
    net_retention: Estimate
    tes: Estimate  # over the runs whose TES is known
    passed: int
    retained_without_recovery: Estimate  # over the runs that have it (Stage II)
    handoff: str = "fresh"

    @property
    def runs(self) -> int:
        return len(self.seeds)

    @property
    def pass_rate(self) -> float:
        return self.passed / self.runs


def agent_label(name: str, options: Mapping[str, str]) -> str:
    """The agent as results group it: the adapter, and its options when it has any (a model
    option makes another agent)."""
    if not options:
        return name
    return f"{name} ({', '.join(f'{k}={v}' for k, v in sorted(options.items()))})"


def stage_of(card: Scorecard) -> int:
    """The curriculum stage the scorecard ran in. Scorecards from before Stage II existed carry
    no `stage` and are Stage I."""
    stage = getattr(card, "stage", None)
    return stage if isinstance(stage, int) and not isinstance(stage, bool) else 1


def result_of(card: Scorecard) -> Result:
    return Result(
        tier_id=card.tier_id,
        agent=agent_label(card.agent.name, card.agent.options),
        stage=stage_of(card),
        seed=card.seed,
        raw_retention=card.scores.raw_retention,
        net_retention=card.scores.net_retention,
        tes=card.scores.tes,
        passed=card.passed,
        retained_without_recovery=card.scores.retained_without_recovery,
        handoff=card.handoff_mode,
    )


def load_results(paths: Iterable[Path]) -> list[Result]:
    """The results of the scorecards at `paths`. A scorecard whose receipt digest is wrong (it
    was edited) is refused; the same scorecard given twice counts once."""
    results: dict[str, Result] = {}
    for path in paths:
        card = load_scorecard(path)
        digest = scorecard_digest(scorecard_document(card))
        if digest != card.receipt.scorecard_sha256:
            raise UsageError(f"{path}: the scorecard does not match its receipt's digest (edited)")
        results.setdefault(digest, result_of(card))
    return list(results.values())


def estimate(values: Sequence[float], *, seed: int = BOOTSTRAP_SEED) -> Estimate:
    """Mean and bootstrap interval of `values`."""
    if not values:
        return Estimate(0, None, None, None)
    mean = statistics.fmean(values)
    if len(values) < MIN_RUNS:
        return Estimate(len(values), mean, None, None)
    low, high = bootstrap_interval(values, RESAMPLES, CONFIDENCE, seed)
    return Estimate(len(values), mean, low, high)


def summarize(results: Iterable[Result]) -> tuple[Summary, ...]:
    """One summary per (stage, handoff, tier, agent), in that order (`fresh` first, tiers in
    numeric order)."""
    groups: dict[tuple[int, str, str, str], list[Result]] = {}
    for result in results:
        key = (result.stage, result.handoff, result.tier_id, result.agent)
        groups.setdefault(key, []).append(result)
    summaries = []
    for (stage, handoff, tier_id, agent), group in sorted(groups.items(), key=_order):
        known_tes = [r.tes for r in group if r.tes is not None]
        kept = [r.retained_without_recovery for r in group]
        summaries.append(
            Summary(
                tier_id=tier_id,
                agent=agent,
                stage=stage,
                seeds=tuple(sorted(r.seed for r in group)),
                raw_retention=estimate([r.raw_retention for r in group]),
                net_retention=estimate([r.net_retention for r in group]),
                tes=estimate(known_tes),
                passed=sum(r.passed for r in group),
                retained_without_recovery=estimate([k for k in kept if k is not None]),
                handoff=handoff,
            )
        )
    return tuple(summaries)


def summary_json(summaries: Sequence[Summary]) -> list[dict[str, Any]]:
    """The summaries as `specsnap aggregate --json` prints them and the leaderboard stores them."""
    return [
        {
            "stage": s.stage,
            "handoff": s.handoff,
            "tier_id": s.tier_id,
            "agent": s.agent,
            "runs": s.runs,
            "seeds": list(s.seeds),
            "raw_retention": _estimate_json(s.raw_retention),
            "net_retention": _estimate_json(s.net_retention),
            "retained_without_recovery": _estimate_json(s.retained_without_recovery),
            "tes": _estimate_json(s.tes),
            "passed": s.passed,
            "pass_rate": round(s.pass_rate, 6),
            "confidence": CONFIDENCE,
        }
        for s in summaries
    ]


def _estimate_json(value: Estimate) -> dict[str, Any]:
    def rounded(x: float | None) -> float | None:
        return None if x is None else round(x, 6)

    return {
        "count": value.count,
        "mean": rounded(value.mean),
        "low": rounded(value.low),
        "high": rounded(value.high),
    }


def _order(group: tuple[tuple[int, str, str, str], Any]) -> tuple[int, int, list[Any], str]:
    stage, handoff, tier_id, agent = group[0]
    natural = [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", tier_id)]
    return stage, HANDOFF_MODES.index(handoff), natural, agent
