"""SpecSnap's vocabulary: the words every report uses for scores, sessions and findings.

scorecard.md, the PR comment, the check run, the badge, the bot's replies and the terminal say
the same things the same way. Functions that show outside text take a `Style`: Markdown puts
names in code spans, the terminal shows them plainly, GitHub's plain-text fields make them inert.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from specsnap.render.markup import code, inert, plain, text
from specsnap.scorecard.model import (
    BaselineFailure,
    Breach,
    Cutoff,
    Exit,
    Finding,
    ProtectedChange,
    Requirement,
    Scorecard,
    Scores,
    Session,
    StageTwo,
    Tokens,
    TrackerUse,
    WiringViolation,
)


@dataclass(frozen=True)
class Style:
    name: Callable[[object], str]  # identifiers: paths, test ids, modules, commands
    prose: Callable[[object], str]  # sentences that contain outside text


MARKDOWN = Style(code, text)
TERMINAL = Style(plain, plain)
GITHUB_PLAIN = Style(inert, inert)

PASSED_MARK = "✅"
FAILED_MARK = "❌"

ENDINGS = {
    "completed": "finished",
    "cutoff": "cut off",
    "crashed": "crashed",
    "timeout": "timed out",
    "failed-to-start": "failed to start",
}

CUTOFF_REASONS = {
    "source-edit": "a source edit",
    "commit-attempt": "a commit attempt (refused by the hook)",
    "commit": "HEAD changing while armed (a commit past the hook)",
}


PERTURBATIONS = {
    "lost-work": "lost work in progress",
    "teammate-refactor": "teammate refactor",
    "planted-regression": "planted regression",
    "stale-note": "stale note",
}


def tracker_story(use: TrackerUse, index: int) -> str:
    """What the ticket tracker served in session `index` (Stage II), and, after session 1,
    which channel the session's work used."""
    times = "1 consultation" if use.consultations == 1 else f"{use.consultations} consultations"
    served = f"{times}, {use.chars_served:,} characters served"
    if index == 1:
        return f"tracker: {served}" if use.consultations else "tracker not consulted"
    if use.consultations:
        return f"recovered (tracker: {served})"
    return "retained without recovery (tracker not consulted)"


def recovery_story(stage2: StageTwo) -> str:
    """Which channel a Stage II score used."""
    if stage2.channel == "recovered":
        n = stage2.consultations
        return f"recovered ({n} tracker consultation{'s' if n != 1 else ''} after session 1)"
    return "retained without recovery (no tracker consultation after session 1)"


def faults_story(stage2: StageTwo) -> str:
    if not stage2.faults:
        return "no fault could be applied"
    return (
        f"faults detected {stage2.detected} of {stage2.faults}, "
        f"repaired {stage2.repaired} of {stage2.faults}"
    )


def outcome(value: bool | None) -> str:
    """Detected or repaired: yes, no, or a dash where the question does not apply."""
    return "—" if value is None else f"{mark(value)} {'yes' if value else 'no'}"


def percent(value: float) -> str:
    return f"{value * 100:.1f}%"


def tes_text(value: float | None) -> str:
    """TES is a fraction like the retentions; unknown tokens make it n/a, never a guess."""
    return "n/a" if value is None else percent(value)


def points(delta: float) -> str:
    """A signed change of a fraction, in percentage points."""
    if abs(delta) < 0.0005:
        return "±0"
    arrow = "▲" if delta > 0 else "▼"
    return f"{arrow} {abs(delta) * 100:.1f}"


def verdict(passed: bool) -> str:
    return "passed" if passed else "not passed"


def mark(ok: bool) -> str:
    return PASSED_MARK if ok else FAILED_MARK


def gate_state(holds: bool) -> str:
    return "holds" if holds else "broken"


KEPT = "retained without recovery"


def headline(card: Scorecard) -> str:
    """One line: the verdict and the scores that decided it (Stage II: retention without
    recovery first, it decides PASS)."""
    broken = "" if card.gate.holds else " (regression gate broken)"
    scores = card.scores
    return (
        f"{verdict(card.passed).capitalize()}{broken}: {kept_part(scores)}"
        f"net {percent(scores.net_retention)}, "
        f"raw {percent(scores.raw_retention)}, TES {tes_text(scores.tes)}"
    )


def kept_part(scores: Scores) -> str:
    """`retained without recovery X%, ` in a Stage II score line; nothing in Stage I."""
    kept = scores.retained_without_recovery
    return "" if kept is None else f"{KEPT} {percent(kept)}, "


def pass_rule(scores: Scores) -> str:
    """What PASS needs: net retention, or in Stage II retention without recovery."""
    kept = scores.retained_without_recovery is not None
    measure = "retention without recovery" if kept else "net retention"
    return f"PASS needs {measure} ≥ {percent(scores.pass_threshold)}"


def requirement_counts(card: Scorecard) -> str:
    """`4 of 6 retained`; in Stage II also how many of those passed only as recovered."""
    total, passed = len(card.requirements), len(card.requirements) - len(card.lost)
    recovered = sum(r.retention == "recovered" for r in card.requirements)
    if card.stage2 is None:
        return f"{passed} of {total} retained"
    return f"{passed - recovered} of {total} retained, {recovered} recovered"


def duration(seconds: float | None) -> str:
    if seconds is None:
        return "n/a"
    if seconds < 60:
        return f"{seconds:.1f} s"
    minutes, rest = divmod(round(seconds), 60)
    return f"{minutes} min {rest:02d} s"


def ending(exit_info: Exit, style: Style) -> str:
    """How a session ended, said plainly: finished, cut off, crashed, timed out."""
    word = ENDINGS[exit_info.status]
    if exit_info.status == "crashed":
        if exit_info.signal:
            word += f" ({style.prose(exit_info.signal)})"
        elif exit_info.code:
            word += f" (exit code {exit_info.code})"
    return word


def cutoff_story(cutoff: Cutoff, style: Style) -> str:
    """Where and when the cutoff fired, or why it did not."""
    if not cutoff.armed:
        return "not armed"
    if not cutoff.fired:
        return "armed, never fired"
    when = f" after {duration(cutoff.after_s)}" if cutoff.after_s is not None else ""
    if cutoff.file is not None:
        change = f" ({cutoff.change})" if cutoff.change else ""
        return f"fired{when} on {style.name(cutoff.file)}{change}"
    reason = CUTOFF_REASONS.get(cutoff.reason or "", cutoff.reason or "an unrecorded reason")
    return f"fired{when} on {reason}"


def tokens_story(tokens: Tokens) -> str:
    """Input / output / cache write / cache read, and where the figures came from."""
    if tokens.source == "unknown":
        return "unknown"
    counts = (tokens.input, tokens.output, tokens.cache_write, tokens.cache_read)
    return " / ".join(f"{n:,}" for n in counts) + f" ({tokens.source})"


def session_line(session: Session, style: Style) -> str:
    """One session in one line: how it ended, its cutoff, tokens, duration."""
    ended = f"{ending(session.exit, style)} after {duration(session.duration_s)}"
    tracker = f"; {tracker_story(session.tracker, session.index)}" if session.tracker else ""
    return (
        f"session {session.index}: {ended}; cutoff {cutoff_story(session.cutoff, style)}; "
        f"tokens {tokens_story(session.tokens)}{tracker}"
    )


def requirement_result(requirement: Requirement, style: Style) -> str:
    if requirement.retention == "recovered":
        return "recovered (passed after its ticket was read)"
    if requirement.passed:
        return "retained"
    failing = requirement.failing_tests
    if not failing:
        return "not retained"
    first = failing[0]
    more = f" and {len(failing) - 1} more" if len(failing) > 1 else ""
    return f"not retained: {style.name(first.id)} {style.prose(first.outcome)}{more}"


def finding_text(finding: Finding, style: Style) -> str:
    """One gate finding as every report lists it."""
    name, prose = style.name, style.prose
    if isinstance(finding, BaselineFailure):
        return f"baseline test {name(finding.test)}: {prose(finding.outcome)}"
    if isinstance(finding, ProtectedChange):
        return f"protected file {name(finding.path)} {prose(finding.change)}"
    if isinstance(finding, WiringViolation):
        return (
            f"module boundary: {name(finding.importer)} imports {name(finding.imported)} at "
            f"{name(f'{finding.file}:{finding.line}')} ({prose(finding.kind)}): "
            f"{prose(finding.rule)}"
        )
    return f"protocol breach {breach_where(finding)}: {prose(finding.what)}"


def finding_title(finding: Finding) -> str:
    """A short title (check-run annotations); outside text made inert."""
    if isinstance(finding, BaselineFailure):
        return f"Baseline test {inert(finding.outcome)}"
    if isinstance(finding, ProtectedChange):
        return f"Protected file {inert(finding.change)}"
    if isinstance(finding, WiringViolation):
        return f"Module boundary violated: {inert(finding.importer)} → {inert(finding.imported)}"
    return "Protocol breach"


def finding_place(finding: Finding) -> tuple[str, int] | None:
    """The file and line a finding is about, in the graded repository, when it has one."""
    if isinstance(finding, BaselineFailure):
        path = finding.test.split("::", 1)[0]
        return (path, 1) if path.endswith(".py") else None
    if isinstance(finding, ProtectedChange):
        return finding.path, 1
    if isinstance(finding, WiringViolation):
        return finding.file, max(finding.line, 1)
    if isinstance(finding, Breach) and finding.file:
        return finding.file, max(finding.line or 1, 1)
    return None


def breach_where(breach: Breach) -> str:
    return f"in session {breach.session}" if breach.session else "in the graded code"
