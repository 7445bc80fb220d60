"""`specsnap run`, `session` and `grade` in the terminal: a few plain lines (pure).

Outside text is shown with its control characters escaped, so a file name cannot move the
cursor or clear the screen.
"""

from __future__ import annotations

from specsnap.render.markup import plain
from specsnap.render.words import (
    KEPT,
    PERTURBATIONS,
    TERMINAL,
    faults_story,
    finding_text,
    percent,
    recovery_story,
    requirement_counts,
    session_line,
    tes_text,
    verdict,
)
from specsnap.render.work_words import (
    agent_tests_text,
    continuity_text,
    maintainability_text,
    risky_move_text,
    work_line,
)
from specsnap.scorecard.model import Scorecard, Session

#: Gate findings listed before the rest are only counted.
FINDINGS_SHOWN = 10


def render_summary(card: Scorecard) -> str:
    """The scorecard in a few lines: verdict, scores, each session, the gate's findings."""
    s = card.scores
    kept = (
        ""
        if s.retained_without_recovery is None
        else f"{KEPT} {percent(s.retained_without_recovery)}   "
    )
    lines = [
        f"{plain(card.tier_id)} · agent {plain(card.agent.name)} · seed {card.seed}: "
        f"{verdict(card.passed).upper()}",
        f"  requirements {requirement_counts(card)}   {kept}"
        f"raw {percent(s.raw_retention)}   net {percent(s.net_retention)}   TES {tes_text(s.tes)}",
    ]
    if card.stage2 is not None:  # beside the scores: which channel they used
        lines.append(f"  stage II: {recovery_story(card.stage2)}; {faults_story(card.stage2)}")
    lines += [f"  {session_line(session, TERMINAL)}" for session in card.sessions]
    if card.stage2 is not None:
        for p in card.stage2.perturbations:
            found = f" (detected: {yes_no(p.detected)}, repaired: {yes_no(p.repaired)})"
            lines.append(
                f"  before session {p.session}: {PERTURBATIONS[p.kind]}: {plain(p.what)}"
                + (found if p.detected is not None else "")
            )
    lines += _work_lines(card)
    findings = [f"  gate: {finding_text(f, TERMINAL)}" for f in card.gate.findings]
    lines += findings[:FINDINGS_SHOWN]
    if len(findings) > FINDINGS_SHOWN:
        lines.append(f"  gate: … and {len(findings) - FINDINGS_SHOWN} more (see scorecard.md)")
    if not card.official:
        lines.append("  unofficial: " + "; ".join(plain(r) for r in card.unofficial_reasons))
    return "\n".join(lines)


def _work_lines(card: Scorecard) -> list[str]:
    """How the work went: each session's trajectory, then the risky moves (a few listed)."""
    if card.work is None:
        return []
    lines = [f"  work: {work_line(s, TERMINAL)}" for s in card.work.sessions]
    if card.work.agent_tests is not None:
        tested = agent_tests_text(card.work.agent_tests, len(card.requirements), TERMINAL)
        lines.append(f"  work: {tested}")
    if card.work.maintainability is not None:
        lines.append(f"  work: {maintainability_text(card.work.maintainability, TERMINAL)}")
    if card.work.continuity is not None:
        lines.append(f"  work: {continuity_text(card.work.continuity, TERMINAL)}")
    moves = [f"  risky: {risky_move_text(m, TERMINAL)}" for m in card.work.risky_moves]
    lines += moves[:FINDINGS_SHOWN]
    more = card.work.risky_moves_total - min(len(moves), FINDINGS_SHOWN)
    if more:
        lines.append(f"  risky: … and {more} more (see scorecard.md)")
    return lines


def yes_no(value: bool | None) -> str:
    return "n/a" if value is None else ("yes" if value else "no")


def render_session(session: Session) -> str:
    """The line printed when a session ends."""
    latency = session.cutoff.latency_ms
    line = session_line(session, TERMINAL)
    return line + (f" (cutoff latency {latency:.2f} ms)" if latency is not None else "")
