"""The leaderboard's plots (pure): per tier and stage, one inline SVG of net retention and, when
the runs' scorecards came beside the ledger, one of the mean effective tokens of each session.

In the first, each agent is a row on a 0–100% net-retention axis: a dot per run (seed), the
confidence interval of the mean as a bar, and the mean as a diamond. In the second, each agent
is a line over sessions 1, 2, … Each SVG is self-contained (no fonts, scripts or links), and
every piece of outside text in it (agent names) is escaped.
"""

from __future__ import annotations

import math
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


TOKENS_HEIGHT = 220
TOKENS_LEFT = 70
INSET = 32  # room for the session labels at both ends
PALETTE = ("#0969da", "#8250df", "#1a7f37", "#bf3989", "#9a6700", "#cf222e", "#57606a")


def tokens_plot(title: str, series: Sequence[tuple[str, Sequence[float | None]]]) -> str:
    """The SVG of mean effective tokens per session: one line per agent (`series`: the agent
    and its mean for session 1, 2, …; None where no run's tokens are known)."""
    sessions = max((len(values) for _, values in series), default=0)
    top = max((v for _, values in series for v in values if v is not None), default=0.0)
    scale = _nice(top)
    bottom = TOKENS_HEIGHT - AXIS
    legend_y = bottom + AXIS + 4
    height = legend_y + 16 * len(series)

    def xy(index: int, value: float) -> tuple[float, float]:
        start, span = TOKENS_LEFT + INSET, WIDTH - TOKENS_LEFT - RIGHT - 2 * INSET
        x = start + (span * index / (sessions - 1) if sessions > 1 else span / 2)
        return round(x, 1), round(bottom - (bottom - TOP) * value / scale, 1)

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="tokens-plot" role="img" '
        f'viewBox="0 0 {WIDTH} {height}" width="{WIDTH}" height="{height}" '
        f'aria-label="{escape(title)}">',
        f"<title>{escape(title)}</title>",
    ]
    for tick in (0.0, 0.5, 1.0):
        y = round(bottom - (bottom - TOP) * tick, 1)
        parts.append(
            f'<line class="grid" x1="{TOKENS_LEFT}" y1="{y}" x2="{WIDTH - RIGHT}" y2="{y}" '
            'stroke="#d0d7de" stroke-width="1"/>'
        )
        parts.append(
            f'<text x="{TOKENS_LEFT - 6}" y="{y + 4}" text-anchor="end" font-size="11" '
            f'fill="#57606a">{_tokens_label(scale * tick)}</text>'
        )
    for index in range(sessions):
        x, _ = xy(index, 0.0)
        parts.append(
            f'<text x="{x}" y="{bottom + 16}" text-anchor="middle" font-size="11" '
            f'fill="#57606a">session {index + 1}</text>'
        )
    for row, (agent, values) in enumerate(series):
        color = PALETTE[row % len(PALETTE)]
        points = [(i, v) for i, v in enumerate(values) if v is not None]
        parts.append(f'<g class="agent-tokens" data-agent="{escape(agent)}">')
        if len(points) > 1:
            path = " ".join(f"{x},{y}" for x, y in (xy(i, v) for i, v in points))
            parts.append(
                f'<polyline points="{path}" fill="none" stroke="{color}" stroke-width="2"/>'
            )
        for i, v in points:
            x, y = xy(i, v)
            parts.append(
                f'<circle cx="{x}" cy="{y}" r="4" fill="{color}"><title>{escape(agent)}, '
                f"session {i + 1}: {_tokens_label(v)} effective tokens (mean)</title></circle>"
            )
        y = legend_y + 16 * row
        shown = agent if len(agent) <= LABEL_CHARS * 2 else agent[: LABEL_CHARS * 2 - 1] + "…"
        parts.append(
            f'<rect x="{TOKENS_LEFT}" y="{y}" width="10" height="10" fill="{color}"/>'
            f'<text x="{TOKENS_LEFT + 16}" y="{y + 9}" font-size="12" fill="#24292f">'
            f"{escape(shown)}</text></g>"
        )
    parts.append("</svg>")
    return "\n".join(parts)


def _nice(top: float) -> float:
    """The axis' top: 1, 2 or 5 times a power of ten, at least `top` (1000 when nothing)."""
    if top <= 0:
        return 1000.0
    power = 10.0 ** math.floor(math.log10(top))
    return float(next(m * power for m in (1, 2, 5, 10) if m * power >= top))


def _tokens_label(value: float) -> str:
    if value >= 1_000_000:
        return f"{value / 1_000_000:g}M"
    if value >= 1000:
        return f"{value / 1000:g}k"
    return f"{value:.0f}"
