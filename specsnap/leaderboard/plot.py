"""The leaderboard's plot: one inline SVG per tier and stage (pure).

Each agent is a row on a 0–100% net-retention axis: a dot per run (seed), the confidence
interval of the mean as a bar, and the mean as a diamond. The SVG is self-contained (no fonts,
scripts or links), and every piece of outside text in it (agent names) is escaped.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape

from specsnap.render.words import percent
from specsnap.scorecard.aggregate import Result, Summary

WIDTH = 720
LEFT = 200  # room for the agent's name
RIGHT = 24
TOP = 16
ROW = 30
AXIS = 34  # room for the axis labels below the rows
LABEL_CHARS = 28
TICKS = (0.0, 0.25, 0.5, 0.75, 1.0)
LEGEND = "● one run (seed) · ◆ mean · bar: confidence interval of the mean (from three runs on)"


def x_of(value: float) -> float:
    """The x coordinate of a fraction in [0, 1]."""
    return round(LEFT + max(0.0, min(1.0, value)) * (WIDTH - LEFT - RIGHT), 1)


def tier_plot(
    title: str, summaries: Sequence[Summary], runs: Mapping[str, Sequence[Result]]
) -> str:
    """The SVG of one tier in one stage: `summaries` in row order, `runs` by agent."""
    height = TOP + ROW * len(summaries) + AXIS
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="plot" role="img" '
        f'viewBox="0 0 {WIDTH} {height}" width="{WIDTH}" height="{height}" '
        f'aria-label="{escape(title)}">',
        f"<title>{escape(title)}</title>",
    ]
    bottom = TOP + ROW * len(summaries)
    for tick in TICKS:
        x = x_of(tick)
        parts.append(
            f'<line class="grid" x1="{x}" y1="{TOP - 6}" x2="{x}" y2="{bottom}" '
            'stroke="#d0d7de" stroke-width="1"/>'
        )
        parts.append(
            f'<text x="{x}" y="{bottom + 16}" text-anchor="middle" font-size="11" '
            f'fill="#57606a">{percent(tick)}</text>'
        )
    parts.append(
        f'<text x="{x_of(0.5)}" y="{bottom + 30}" text-anchor="middle" font-size="11" '
        'fill="#57606a">net retention</text>'
    )
    for row, summary in enumerate(summaries):
        parts += _row(TOP + ROW * row + ROW / 2, summary, runs.get(summary.agent, ()))
    parts.append("</svg>")
    return "\n".join(parts)


def _row(y: float, summary: Summary, runs: Sequence[Result]) -> list[str]:
    label = summary.agent
    shown = label if len(label) <= LABEL_CHARS else label[: LABEL_CHARS - 1] + "…"
    parts = [
        f'<g class="agent-row" data-agent="{escape(label)}">',
        f'<text x="{LEFT - 10}" y="{y + 4}" text-anchor="end" font-size="12" fill="#24292f">'
        f"<title>{escape(label)}</title>{escape(shown)}</text>",
    ]
    net = summary.net_retention
    if net.low is not None and net.high is not None:
        parts.append(
            f'<line class="ci" x1="{x_of(net.low)}" y1="{y}" x2="{x_of(net.high)}" y2="{y}" '
            'stroke="#0969da" stroke-width="4" stroke-linecap="round" opacity="0.45">'
            f"<title>{escape(label)}: CI {percent(net.low)} – {percent(net.high)}</title></line>"
        )
    for run in runs:
        said = f"{escape(label)}, seed {run.seed}: {percent(run.net_retention)}"
        parts.append(
            f'<circle class="run" cx="{x_of(run.net_retention)}" cy="{y}" r="4" '
            f'fill="#8250df" fill-opacity="0.55"><title>{said}</title></circle>'
        )
    if net.mean is not None:
        x = x_of(net.mean)
        parts.append(
            f'<path class="mean" d="M {x} {y - 7} L {x + 6} {y} L {x} {y + 7} L {x - 6} {y} Z" '
            'fill="#1a7f37" stroke="#ffffff" stroke-width="1">'
            f"<title>{escape(label)}: mean {percent(net.mean)}</title></path>"
        )
    parts.append("</g>")
    return parts
