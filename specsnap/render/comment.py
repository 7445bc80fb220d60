"""The sticky pull-request comment and the job summary, as Markdown (pure).

The comment starts with a hidden marker that names it; the publisher finds the comment by that
marker and edits it in place, so a pull request carries one SpecSnap comment per `comment_key`.
It tells each run's story: the scores (and their change against the base branch), the
requirements lost, why the gate broke, and per session how it ended, where and when the cutoff
fired, the tokens and the time. With several seeds of one tier and agent it gives their mean and
spread, and whether the change against the base is beyond run-to-run noise.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from specsnap.render import blocks
from specsnap.render.chart import render_charts
from specsnap.render.limits import COMMENT_MAX, STEP_SUMMARY_MAX_BYTES, fit_blocks
from specsnap.render.markdown import render_markdown
from specsnap.render.markup import code, text
from specsnap.render.words import ENDINGS, mark, percent, points
from specsnap.scorecard.delta import Delta
from specsnap.scorecard.model import Scorecard
from specsnap.scorecard.spread import CONFIDENCE, MIN_PAIRS, Noise, shift_of, spread_of

OMITTED_NOTE = (
    "> [!WARNING]\n> Truncated: details of {omitted} run(s) were left out to stay within GitHub's "
    "size limit. Every scorecard is in the job summary and the workflow's scorecard artifact."
)
NOT_EVALUATED_MARK = "⚪"
NOISE_RULE = (
    f"A change is beyond run-to-run noise when the {CONFIDENCE:.0%} bootstrap interval of the "
    f"mean per-seed difference against the base excludes zero (at least {MIN_PAIRS} seeds "
    "evaluated on both)."
)


@dataclass(frozen=True)
class NotEvaluated:
    """A run that did not happen, and why: a fork's pull request without the API key is
    reported as not evaluated, never as a failure of the agent."""

    tier_id: str
    seed: int
    agent: str
    reason: str  # e.g. "no API key"

    @property
    def label(self) -> str:
        return f"{self.tier_id}, seed {self.seed}"


@dataclass(frozen=True)
class RenderContext:
    """What the renderers may say about where the scorecards came from."""

    run_url: str | None = None
    commit: str | None = None
    base_ref: str | None = None
    notice: str | None = None  # e.g. why publishing was degraded
    not_evaluated: tuple[NotEvaluated, ...] = ()


def comment_marker(key: str) -> str:
    """The hidden first line that identifies SpecSnap's sticky comment for `key`."""
    safe = "".join(c for c in key if c.isalnum() or c in "-_./")
    safe = re.sub("-{2,}", "-", safe) or "default"  # `--` would end the HTML comment
    return f"<!-- specsnap:comment:{safe} -->"


def render_comment(
    cards: Sequence[Scorecard],
    deltas: Mapping[str, Delta | None],
    context: RenderContext,
    key: str,
    limit: int = COMMENT_MAX,
) -> str:
    """The sticky comment body; never longer than `limit`, truncation said in the body."""
    return fit_blocks(
        comment_marker(key) + "\n" + _overview(cards, deltas, context),
        [_details(card, deltas.get(card.key)) for card in cards],
        _footer(cards, context),
        limit,
        OMITTED_NOTE,
    )


def render_summary(
    cards: Sequence[Scorecard], deltas: Mapping[str, Delta | None], context: RenderContext
) -> str:
    """The job summary: the overview, then each run's whole scorecard."""
    reports = [
        f"<details><summary>{text(card.label)}: the whole scorecard</summary>\n\n"
        f"{render_markdown(card)}\n</details>"
        for card in cards
    ]
    # Bytes, not UTF-16 units, bound the summary file; 4 bytes per unit is the safe bound.
    return fit_blocks(
        _overview(cards, deltas, context),
        reports,
        _footer(cards, context),
        STEP_SUMMARY_MAX_BYTES // 4,
        OMITTED_NOTE,
    )


def _overview(
    cards: Sequence[Scorecard], deltas: Mapping[str, Delta | None], context: RenderContext
) -> str:
    skipped = context.not_evaluated
    agents = sorted({card.agent.name for card in cards} | {s.agent for s in skipped})
    passed = sum(card.passed for card in cards)
    lines = [f"### SpecSnap · {', '.join(code(a) for a in agents) or 'no runs'}", ""]
    if context.notice:
        lines += [f"> [!WARNING]\n> {text(context.notice)}", ""]
    where = f" on {code(context.commit[:12])}" if context.commit else ""
    if cards:
        verdict = f"{mark(passed == len(cards))} {passed} of {len(cards)} run(s) passed"
    else:
        verdict = f"{NOT_EVALUATED_MARK} no run was evaluated"
    more = f", {len(skipped)} not evaluated" if skipped and cards else ""
    lines += [f"**{verdict}{more}**{where}", ""]
    kept = blocks.kept_column(cards)
    lines += blocks.score_header(kept)
    lines += [blocks.score_row(card, deltas.get(card.key), kept) for card in cards]
    lines += [
        f"| {text(s.label)} | {'— | ' if kept else ''}— | — | — | — | "
        f"{NOT_EVALUATED_MARK} not evaluated: "
        f"{text(s.reason)} |"
        for s in skipped
    ]
    if cards:
        lines += ["", _base_note(cards, deltas, context)]
    seeds = _seeds(cards, deltas)
    if seeds:
        lines += ["", *seeds]
    charts = render_charts(cards, deltas)
    if charts:
        lines += ["", charts]
    return "\n".join(lines)


def _base_note(
    cards: Sequence[Scorecard], deltas: Mapping[str, Delta | None], context: RenderContext
) -> str:
    if not context.base_ref:
        return "No base branch to compare with: scores are shown without deltas."
    found = [d for d in (deltas.get(c.key) for c in cards) if d is not None]
    missing = [c.label for c in cards if deltas.get(c.key) is None]
    base = code(context.base_ref)
    if not found:
        return (
            f"No SpecSnap scores of {base} found in its recent check runs: no deltas "
            "(evaluate the base branch on `push` to get them)."
        )
    commits = sorted({d.base.commit[:7] for d in found if d.base.commit})
    at = f" at {', '.join(code(c) for c in commits)}" if commits else ""
    note = f"Changes (▲ ▼, percentage points) are against {base}{at}."
    if missing:
        note += f" No base scores for: {'; '.join(text(m) for m in missing)}."
    compared: dict[tuple[str, str], int] = {}
    for card in cards:
        if deltas.get(card.key) is not None:
            group = (card.tier_id, card.agent.name)
            compared[group] = compared.get(group, 0) + 1
    if max(compared.values()) < MIN_PAIRS:
        note += (
            f" With {max(compared.values())} seed(s) per tier compared, a change cannot be told "
            f"from run-to-run noise: evaluate at least {MIN_PAIRS} seeds per tier."
        )
    return note


def _seeds(cards: Sequence[Scorecard], deltas: Mapping[str, Delta | None]) -> list[str]:
    """Mean and spread of net retention per tier and agent with several seeds, and the shift."""
    groups: dict[tuple[str, str], list[Scorecard]] = {}
    for card in cards:
        groups.setdefault((card.tier_id, card.agent.name), []).append(card)
    rows = []
    for (tier, agent), group in groups.items():
        if len(group) < 2:
            continue
        spread = spread_of([c.scores.net_retention for c in group])
        sd = f"sd {spread.stdev * 100:.1f} points, " if spread.stdev is not None else ""
        pairs = [
            (c.scores.net_retention, delta.base.net_retention)
            for c in group
            if (delta := deltas.get(c.key)) is not None
        ]
        rows.append(
            f"| {text(tier)} · {code(agent)} | {len(group)} | {percent(spread.mean)} "
            f"| {sd}{percent(spread.low)} to {percent(spread.high)} | {_shift(pairs)} |"
        )
    if not rows:
        return []
    return [
        "**Across seeds** (net retention)",
        "",
        "| Tier · agent | Seeds | Mean | Spread | Against the base |",
        "|:--|--:|--:|:--|:--|",
        *rows,
        "",
        NOISE_RULE,
    ]


def _shift(pairs: list[tuple[float, float]]) -> str:
    if not pairs:
        return "no base scores"
    shift = shift_of(pairs)
    said = f"{points(shift.mean)} over {shift.pairs} seed(s)"
    if shift.low is not None and shift.high is not None and shift.noise is not Noise.NO_CHANGE:
        said += f" ({CONFIDENCE:.0%} interval {points(shift.low)} to {points(shift.high)})"
    return f"{said}: {shift.noise.value}"


def _details(card: Scorecard, delta: Delta | None) -> str:
    what = [f"{len(card.lost)} requirement(s) not retained" if card.lost else "all retained"]
    if not card.gate.holds:
        what.append("regression gate broken")
    what += [
        f"session {s.index} {ENDINGS[s.exit.status]}"
        for s in card.sessions
        if s.exit.status in ("crashed", "timeout", "failed-to-start")
    ]
    summary = f"{mark(card.passed)} {text(card.label)}: {', '.join(what)}"
    body = "\n".join(blocks.details_body(card, delta))
    return f"<details><summary>{summary}</summary>\n\n{body}\n\n</details>"


def _footer(cards: Sequence[Scorecard], context: RenderContext) -> str:
    versions = sorted({card.specsnap_version for card in cards if card.specsnap_version})
    parts = [f"SpecSnap {', '.join(text(v) for v in versions)}" if versions else "SpecSnap"]
    if context.run_url:
        parts.append(f"[workflow run]({context.run_url})")
    official = [card for card in cards if card.official]
    if official:
        parts.append(f"{len(official)} official scorecard(s)")
    return "<sub>" + " · ".join(parts) + "</sub>"
