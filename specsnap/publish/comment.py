"""The sticky pull-request comment and the job summary, as Markdown (pure).

The comment starts with a hidden marker that names it; the publisher finds the comment by that
marker and edits it in place, so a pull request carries one SpecSnap comment per `comment_key`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from specsnap.publish import markdown as md
from specsnap.publish.limits import COMMENT_MAX, STEP_SUMMARY_MAX_BYTES, fit_blocks
from specsnap.publish.scorecard import Scorecard
from specsnap.publish.snapshot import Delta

OMITTED_NOTE = (
    "> [!WARNING]\n> Truncated: details of {omitted} run(s) were left out to stay within GitHub's "
    "size limit. Every scorecard is in the job summary and the workflow's scorecard artifact."
)


@dataclass(frozen=True)
class RenderContext:
    """What the renderers may say about where the scorecards came from."""

    run_url: str | None = None
    commit: str | None = None
    base_ref: str | None = None
    notice: str | None = None  # e.g. why publishing was degraded


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
    cards: Sequence[Scorecard],
    deltas: Mapping[str, Delta | None],
    context: RenderContext,
    reports: Mapping[str, str],
) -> str:
    """The job summary: the overview, then each run's full report (`reports` by card key)."""
    blocks = [
        f"<details><summary>{md.plain(card.label)}: full scorecard</summary>\n\n"
        f"{reports.get(card.key) or md.details_body(card, deltas.get(card.key))}\n\n</details>"
        for card in cards
    ]
    # Bytes, not UTF-16 units, bound the summary file; 4 bytes per unit is the safe bound.
    return fit_blocks(
        _overview(cards, deltas, context),
        blocks,
        _footer(cards, context),
        STEP_SUMMARY_MAX_BYTES // 4,
        OMITTED_NOTE,
    )


def _overview(
    cards: Sequence[Scorecard], deltas: Mapping[str, Delta | None], context: RenderContext
) -> str:
    agents = sorted({card.agent for card in cards})
    passed = sum(card.scores.passed for card in cards)
    mark = md.PASSED if cards and passed == len(cards) else md.FAILED
    lines = [f"### SpecSnap · {', '.join(md.code(a) for a in agents) or 'no runs'}", ""]
    if context.notice:
        lines += [f"> [!WARNING]\n> {context.notice}", ""]
    where = f" on {md.code(context.commit[:12])}" if context.commit else ""
    lines += [f"**{mark} {passed} of {len(cards)} run(s) passed**{where}", ""]
    lines += md.table_header()
    lines += [md.score_row(card, deltas.get(card.key)) for card in cards]
    lines += ["", _base_note(cards, deltas, context)]
    return "\n".join(lines)


def _base_note(
    cards: Sequence[Scorecard], deltas: Mapping[str, Delta | None], context: RenderContext
) -> str:
    if not context.base_ref:
        return "No base branch to compare with: scores are shown without deltas."
    found = [d for d in (deltas.get(c.key) for c in cards) if d is not None]
    missing = [c.label for c in cards if deltas.get(c.key) is None]
    base = md.code(context.base_ref)
    if not found:
        return (
            f"No SpecSnap scores of {base} found in its recent check runs: no deltas "
            "(evaluate the base branch on `push` to get them)."
        )
    commits = sorted({d.base.commit[:7] for d in found if d.base.commit})
    at = f" at {', '.join(md.code(c) for c in commits)}" if commits else ""
    note = f"Changes (▲ ▼, percentage points) are against {base}{at}."
    if missing:
        note += f" No base scores for: {', '.join(md.plain(m) for m in missing)}."
    return note


def _details(card: Scorecard, delta: Delta | None) -> str:
    lost = sum(not r.passed for r in card.requirements)
    what = [f"{lost} requirement(s) not retained" if lost else "all requirements retained"]
    if not card.gate.holds:
        what.append("regression gate broken")
    summary = f"{md.plain(card.label)} — {', '.join(what)}"
    return f"<details><summary>{summary}</summary>\n\n{md.details_body(card, delta)}\n\n</details>"


def _footer(cards: Sequence[Scorecard], context: RenderContext) -> str:
    versions = sorted({card.specsnap_version for card in cards if card.specsnap_version})
    parts = [f"SpecSnap {', '.join(versions)}" if versions else "SpecSnap"]
    if context.run_url:
        parts.append(f"[workflow run]({context.run_url})")
    official = [card for card in cards if card.official]
    if official:
        parts.append(f"{len(official)} official scorecard(s)")
    return "<sub>" + " · ".join(parts) + "</sub>"
