"""Markdown blocks shared by scorecard.md, the PR comment and the check run (pure).

Every block is a list of lines; outside text goes through `render.markup` (via the MARKDOWN
style), SpecSnap's own words come from `render.words`.
"""

from __future__ import annotations

from collections.abc import Sequence

from specsnap.render.markup import code, text
from specsnap.render.words import (
    MARKDOWN,
    PERTURBATIONS,
    cutoff_story,
    duration,
    ending,
    faults_story,
    finding_text,
    gate_state,
    mark,
    outcome,
    percent,
    points,
    recovery_story,
    requirement_counts,
    requirement_result,
    tes_text,
    tokens_story,
    tracker_story,
    verdict,
)
from specsnap.render.work_words import (
    WORK_NOTE,
    WORK_TITLE,
    agent_tests_text,
    continuity_text,
    maintainability_text,
    risky_move_text,
    work_line,
)
from specsnap.scorecard.delta import Delta
from specsnap.scorecard.model import Scorecard

#: Longest list shown inside one block; the rest is counted, not listed.
LIST_MAX = 25


def bounded(lines: Sequence[str], what: str, limit: int = LIST_MAX) -> list[str]:
    """At most `limit` lines, then one line saying how many more `what` there are."""
    shown = list(lines[:limit])
    if len(lines) > limit:
        shown.append(f"- … and {len(lines) - limit} more {what} (see scorecard.json)")
    return shown


def kept_column(cards: Sequence[Scorecard]) -> bool:
    """Whether a score table of `cards` shows retention without recovery: with a Stage II run
    among them it comes first (it decides a Stage II PASS)."""
    return any(c.scores.retained_without_recovery is not None for c in cards)


def score_header(kept: bool) -> list[str]:
    return [
        "| Run | "
        + ("Retained without recovery | " if kept else "")
        + "Net retention | Raw retention | TES | Regression gate | Result |",
        "|:--|" + ("--:|" if kept else "") + "--:|--:|--:|:--|:--|",
    ]


def score_row(card: Scorecard, delta: Delta | None, kept_column: bool = False) -> str:
    """One run's scores; with a delta, each shows its change against the base."""
    scores = card.scores
    value = scores.retained_without_recovery
    kept = ("— | " if value is None else f"{percent(value)} | ") if kept_column else ""
    net, raw = percent(scores.net_retention), percent(scores.raw_retention)
    tes = tes_text(scores.tes)
    result = f"{mark(card.passed)} {verdict(card.passed)}"
    if delta is not None:
        net += f" ({points(delta.net_retention)})"
        raw += f" ({points(delta.raw_retention)})"
        if delta.tes is not None:
            tes += f" ({points(delta.tes)})"
        if delta.pass_changed:
            result += f" (was {verdict(delta.base.passed)})"
    gate = f"{mark(card.gate.holds)} {gate_state(card.gate.holds)}"
    channel = f" ({card.stage2.channel})" if card.stage2 is not None else ""
    return f"| {text(card.label)}{channel} | {kept}{net} | {raw} | {tes} | {gate} | {result} |"


def unofficial_lines(card: Scorecard) -> list[str]:
    if card.official:
        return []
    reasons = "; ".join(text(r) for r in card.unofficial_reasons) or "no reason recorded"
    return ["> [!NOTE]", f"> Unofficial: {reasons}."]


def findings_lines(card: Scorecard) -> list[str]:
    """Why the regression gate is broken, one bullet per finding (bounded)."""
    findings = card.gate.findings
    if card.gate.holds:
        return []
    lines = [f"- {finding_text(f, MARKDOWN)}" for f in findings]
    if not lines:
        lines = ["- the grader reported the gate broken without findings"]
    head = ["**Regression gate broken**: net retention counts as 0.", ""]
    return head + bounded(lines, "gate findings")


def lost_lines(card: Scorecard) -> list[str]:
    """The requirements not retained, with their first failing test (bounded)."""
    total = len(card.requirements)
    if not card.lost:
        if card.stage2 is not None:
            return [f"**All {total} requirements passed**: {requirement_counts(card)}."]
        return [f"**All {total} requirements retained.**"]
    lines = [
        f"- {code(r.id)} {text(r.title)} ({code(r.package)}): {requirement_result(r, MARKDOWN)}"
        for r in card.lost
    ]
    head = [f"**Requirements not retained** ({len(card.lost)} of {total})", ""]
    return head + bounded(lines, "requirements")


def requirements_table(card: Scorecard) -> list[str]:
    """Every requirement and its result (scorecard.md)."""
    lines = ["| Requirement | Package | Result |", "|:--|:--|:--|"]
    for r in card.requirements:
        result = f"{mark(r.passed)} {requirement_result(r, MARKDOWN)}"
        lines.append(f"| {code(r.id)} {text(r.title)} | {code(r.package)} | {result} |")
    return lines


def sessions_table(card: Scorecard) -> list[str]:
    """The story of each session: how it ended, its cutoff, tokens, duration; then notes.
    (A session's protocol breaches are gate findings, listed with the others.)"""
    lines = [
        "| Session | Ended | Cutoff | Tokens (in / out / cache write / cache read) | Duration |",
        "|--:|:--|:--|:--|--:|",
    ]
    notes: list[str] = []
    for s in card.sessions:
        lines.append(
            f"| {s.index} | {ending(s.exit, MARKDOWN)} | {cutoff_story(s.cutoff, MARKDOWN)} "
            f"| {tokens_story(s.tokens)} | {duration(s.duration_s)} |"
        )
        if s.tokens_reported is not None and s.tokens_reported != s.tokens:
            notes.append(
                f"- session {s.index}: the agent reported {tokens_story(s.tokens_reported)}"
            )
        notes += [f"- session {s.index}: {text(note)}" for note in s.notes]
    return lines + (["", *bounded(notes, "session notes")] if notes else [])


def stage2_lines(card: Scorecard) -> list[str]:
    """Stage II: the channel the score used, each perturbation and how the agent met it, and
    what the tracker served in each session. Nothing for a Stage I run."""
    stage2 = card.stage2
    if stage2 is None:
        return []
    lines = [
        "| Before session | Perturbation | What | Detected | Repaired |",
        "|--:|:--|:--|:--|:--|",
    ]
    for p in stage2.perturbations:
        lines.append(
            f"| {p.session} | {PERTURBATIONS[p.kind]} | {text(p.what)} "
            f"| {outcome(p.detected)} | {outcome(p.repaired)} |"
        )
    lines += ["", "| Session | Channel and ticket tracker |", "|--:|:--|"]
    for s in card.sessions:
        if s.tracker is not None:
            lines.append(f"| {s.index} | {tracker_story(s.tracker, s.index)} |")
    return lines


def work_lines(card: Scorecard) -> list[str]:
    """How the work went: a line per session, then the risky moves (bounded). Nothing for a
    scorecard without the section."""
    work = card.work
    if work is None:
        return []
    lines = [f"- {work_line(s, MARKDOWN)}" for s in work.sessions]
    if work.agent_tests is not None:
        lines.append(f"- {agent_tests_text(work.agent_tests, len(card.requirements), MARKDOWN)}")
    if work.maintainability is not None:
        lines.append(f"- {maintainability_text(work.maintainability, MARKDOWN)}")
    if work.continuity is not None:
        lines.append(f"- {continuity_text(work.continuity, MARKDOWN)}")
    if not work.risky_moves_total:
        return [*lines, "", "No risky moves."]
    moves = [f"- {risky_move_text(m, MARKDOWN)}" for m in work.risky_moves[:LIST_MAX]]
    more = work.risky_moves_total - len(moves)
    if more:  # beyond the list, or beyond what the scorecard keeps (Work.risky_moves_total)
        moves.append(f"- … and {more} more risky moves")
    head = [f"**Risky moves** ({work.risky_moves_total}; {WORK_NOTE})", ""]
    return [*lines, "", *head, *moves]


def details_body(card: Scorecard, delta: Delta | None) -> list[str]:
    """What a reader of one run needs: lost requirements, changes, gate, sessions."""
    out = lost_lines(card)
    if delta is not None and (delta.newly_failed or delta.newly_passed):
        out.append("")
        if delta.newly_failed:
            out.append(f"Newly lost since the base: {', '.join(map(code, delta.newly_failed))}")
        if delta.newly_passed:
            retained = ", ".join(map(code, delta.newly_passed))
            out.append(f"Newly retained since the base: {retained}")
    findings = findings_lines(card)
    if findings:
        out += ["", *findings]
    out += ["", *sessions_table(card)]
    work = work_lines(card)
    if work:
        out += ["", f"**{WORK_TITLE}**", "", *work]
    if card.stage2 is not None:
        summary = f"**Stage II**: {recovery_story(card.stage2)}; {faults_story(card.stage2)}."
        out += ["", summary, "", *stage2_lines(card)]
    unofficial = unofficial_lines(card)
    if unofficial:
        out += ["", *unofficial]
    return out
