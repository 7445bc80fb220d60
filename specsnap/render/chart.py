"""Charts GitHub draws from Markdown (mermaid `xychart-beta`), for the comment and the job summary.

Two pictures of the runs a comment shows: net retention per run (bars) with TES and, where the
base branch has scores, the base's net retention (lines); and the effective tokens of each
session, one line per run. Pure: the scorecards in, Markdown out. Every label is built from
values SpecSnap checked (tier ids, seeds, session numbers) and kept to a small set of
characters, so nothing in a scorecard can change the chart's syntax.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from specsnap.scorecard.delta import Delta
from specsnap.scorecard.model import Scorecard

#: More runs than this and the bars become unreadable: the table says it all then.
MAX_RUNS = 24
_LABEL = re.compile(r"[^A-Za-z0-9 .,-]")


def render_charts(cards: Sequence[Scorecard], deltas: Mapping[str, Delta | None]) -> str:
    """The charts of `cards`, or "" (no run, or too many to draw)."""
    if not cards or len(cards) > MAX_RUNS:
        return ""
    parts = [_retention(cards, deltas), _tokens(cards)]
    return "\n\n".join(part for part in parts if part)


def _retention(cards: Sequence[Scorecard], deltas: Mapping[str, Delta | None]) -> str:
    labels = [_label(f"{c.tier_id} s{c.seed}" + (" II" if c.stage == 2 else "")) for c in cards]
    net = [_percent(c.scores.net_retention) for c in cards]
    tes = [_percent(c.scores.tes) if c.scores.tes is not None else "0" for c in cards]
    bases = [deltas.get(c.key) for c in cards]
    lines = [
        "xychart-beta",
        '    title "Net retention (bars) and TES (lines), %"',
        f"    x-axis [{', '.join(labels)}]",
        '    y-axis "%" 0 --> 100',
        f"    bar [{', '.join(net)}]",
        f"    line [{', '.join(tes)}]",
    ]
    if any(base is not None for base in bases):
        shown = [_percent(b.base.net_retention) if b is not None else "0" for b in bases]
        lines.append(f"    line [{', '.join(shown)}]")
    legend = "Bars: net retention. Lines: TES" + (
        ", then the base branch's net retention (0 where it has none)."
        if any(b is not None for b in bases)
        else "."
    )
    if any(c.scores.tes is None for c in cards):
        legend += " TES is drawn as 0 where tokens are unknown."
    return _mermaid(lines) + f"\n\n<sub>{legend}</sub>"


def _tokens(cards: Sequence[Scorecard]) -> str:
    sessions = max(len(c.sessions) for c in cards)
    known = [c for c in cards if all(s.tokens.source != "unknown" for s in c.sessions)]
    if not known:
        return ""
    lines = [
        "xychart-beta",
        '    title "Effective tokens per session, one line per run"',
        f"    x-axis [{', '.join(_label(f'session {n}') for n in range(1, sessions + 1))}]",
        '    y-axis "tokens"',
    ]
    for card in known:
        values = [_effective(card, n) for n in range(1, sessions + 1)]
        lines.append(f"    line [{', '.join(values)}]")
    order = "; ".join(_safe(c.label) for c in known)
    after = (
        " (0 past a run's last session)" if any(len(c.sessions) < sessions for c in known) else ""
    )
    return _mermaid(lines) + f"\n\n<sub>Lines in this order{after}: {order}.</sub>"


def _effective(card: Scorecard, index: int) -> str:
    for session in card.sessions:
        if session.index == index:
            t = session.tokens
            total = (
                t.input + t.output + t.cache_write + card.scores.cache_read_weight * t.cache_read
            )
            return f"{total:.0f}"
    return "0"


def _mermaid(lines: list[str]) -> str:
    return "```mermaid\n" + "\n".join(lines) + "\n```"


def _percent(value: float | None) -> str:
    return f"{100 * (value or 0):.1f}"


def _label(value: str) -> str:
    return f'"{_safe(value)}"'


def _safe(value: str) -> str:
    return _LABEL.sub("", value)[:40]
