"""The multi-seed summary (`specsnap aggregate`) in the terminal: one aligned table (pure)."""

from __future__ import annotations

from collections.abc import Sequence

from specsnap.render.markup import plain
from specsnap.render.words import percent
from specsnap.scorecard.aggregate import MIN_RUNS, Estimate, Summary
from specsnap.scorecard.spread import CONFIDENCE

STAGES = {1: "I", 2: "II"}
HEADER = (
    "stage",
    "tier",
    "agent",
    "runs",
    "kept",
    "raw",
    "net",
    "net CI",
    "TES",
    "TES CI",
    "PASS",
)
NO_VALUE = "—"


def stage_name(stage: int) -> str:
    """Stage I, Stage II (the numerals the protocol uses)."""
    return STAGES.get(stage, str(stage))


def mean_text(value: Estimate) -> str:
    return NO_VALUE if value.mean is None else percent(value.mean)


def interval_text(value: Estimate) -> str:
    if value.low is None or value.high is None:
        return NO_VALUE
    return f"{percent(value.low)} – {percent(value.high)}"


def tes_mean_text(summary: Summary) -> str:
    """Mean TES, saying over how many runs when some runs' tokens are unknown."""
    text = mean_text(summary.tes)
    if summary.tes.count < summary.runs:
        text += f" ({summary.tes.count} of {summary.runs} known)"
    return text


def render_summaries(summaries: Sequence[Summary]) -> str:
    """The table, and a line on what the intervals are."""
    if not summaries:
        return "no scorecards"
    rows: list[tuple[str, ...]] = [HEADER]
    rows += [
        (
            stage_name(s.stage),
            plain(s.tier_id),
            plain(s.agent),
            str(s.runs),
            mean_text(s.retained_without_recovery),
            mean_text(s.raw_retention),
            mean_text(s.net_retention),
            interval_text(s.net_retention),
            tes_mean_text(s),
            interval_text(s.tes),
            f"{s.passed}/{s.runs}",
        )
        for s in summaries
    ]
    numeric = {3, 4, 5, 6, 8}
    kept = any(s.retained_without_recovery.count for s in summaries)
    if not kept:  # Stage I only: no column of Stage II's retention without recovery
        rows = [row[:4] + row[5:] for row in rows]
        numeric = {3, 4, 5, 7}
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = [
        "  ".join(
            cell.rjust(widths[i]) if i in numeric else cell.ljust(widths[i])
            for i, cell in enumerate(row)
        ).rstrip()
        for row in rows
    ]
    lines.append(
        f"CI: {CONFIDENCE:.0%} percentile bootstrap of the mean over runs (seeded); "
        f"none below {MIN_RUNS} runs."
        + (" kept: Stage II's retention without recovery (it decides PASS there)." if kept else "")
    )
    return "\n".join(lines)
