"""The words of "How the work went": each session's trajectory, the risky moves, the agent's own
tests, the maintainability signals and the amendments' continuity, as every report says them
(specsnap.render.words holds the rest of the vocabulary)."""

from __future__ import annotations

from specsnap.render.words import Style
from specsnap.scorecard.model import AgentTests, Continuity, Maintainability, RiskyMove, WorkSession

WORK_TITLE = "How the work went"
WORK_NOTE = "signals of how the work was done, never part of a score or the gate"

RISKY_MOVES = {
    "git-reset-hard": "git reset --hard",
    "git-checkout-discard": "changes discarded with git checkout",
    "git-clean": "git clean",
    "force-push": "force push",
    "no-verify": "hooks skipped (--no-verify)",
    "rm-rf": "rm -rf",
    "test-deleted": "test deleted",
    "assertions-removed": "assertions removed",
    "skip-added": "test skipped",
    "broad-rewrite": "broad rewrite",
    "dependency-added": "dependency added",
}


def work_line(work: WorkSession, style: Style) -> str:
    """One session's trajectory in one line, or why it has none."""
    t = work.trajectory
    if t is None:
        why = (work.why or "no reason recorded").removeprefix("unavailable: ")
        return f"session {work.session}: trajectory unavailable: {style.prose(why)}"
    actions = ", ".join(f"{n} {style.prose(kind)}" for kind, n in t.actions.items() if n)
    edit = (
        "no edit"
        if t.tokens_before_first_edit is None
        else f"{t.tokens_before_first_edit:,} tokens before the first edit"
    )
    parts = [
        "1 turn" if t.turns == 1 else f"{t.turns} turns",
        f"actions {actions or 'none'}",
        f"tests run {t.test_runs}, longest failing streak {t.longest_failing_streak}",
        edit,
    ]
    if t.rediscovered_files:
        parts.append(f"{t.rediscovered_files} file(s) read again from an earlier session")
    if t.repeated_failing_command is not None:
        parts.append(f"failing command repeated: {style.name(t.repeated_failing_command)}")
    return f"session {work.session}: " + "; ".join(parts)


def risky_move_text(move: RiskyMove, style: Style) -> str:
    """A risky move: what, the file or command, and where (session, step or commit)."""
    target = move.file if move.file is not None else move.command
    session = f"session {move.session}" if move.session is not None else "session unknown"
    return (
        f"{RISKY_MOVES[move.kind]}: {style.name(target or '')} "
        f"({session}, {style.prose(move.where)})"
    )


def agent_tests_text(tests: AgentTests, requirements: int, style: Style) -> str:
    """The agent's own tests in one line: how many, which requirements they test (of how many),
    and why not all were measured."""
    files = "1 file" if len(tests.files) == 1 else f"{len(tests.files)} files"
    if not tests.tests and tests.why is not None:
        return f"agent's tests: {style.prose(tests.why)}"
    credited = f" ({', '.join(map(style.name, tests.credited))})" if tests.credited else ""
    line = (
        f"agent's tests: {_count(tests.tests, 'test')} in {files} test "
        f"{len(tests.credited)} of {requirements} requirements{credited}"
    )
    return line + (f"; {style.prose(tests.why)}" if tests.why else "")


def maintainability_text(signals: Maintainability, style: Style) -> str:
    """The diff's maintainability signals in one line."""
    if signals.lines_added is None:
        return f"maintainability: {style.prose(signals.why or 'not measured')}"
    reference = signals.reference_lines_added
    parts = [
        f"{signals.lines_added:,} source lines added"
        + (f" (the reference solution adds {reference:,})" if reference is not None else ""),
        "duplication not measured"
        if signals.duplicated_blocks is None
        else f"{_count(signals.duplicated_blocks, 'duplicated block')} added",
    ]
    if signals.complexity_added is not None:
        most = f", most complex {style.name(signals.most_complex)}" if signals.most_complex else ""
        parts.append(f"complexity {signals.complexity_added:+d}{most}")
    parts.append(f"dead code {signals.dead_code_total}")
    dead = ", ".join(style.name(d) for d in signals.dead_code[:3])
    if dead:
        parts[-1] += f" ({dead}{', …' if signals.dead_code_total > 3 else ''})"
    outside = ", ".join(style.name(p) for p in signals.out_of_scope[:3])
    parts.append(
        f"{_count(signals.out_of_scope_total, 'source file')} outside the sprint's packages"
        + (f" ({outside}{', …' if signals.out_of_scope_total > 3 else ''})" if outside else "")
    )
    if signals.unparsed:
        parts.append(f"{_count(signals.unparsed, 'file')} not parsed")
    return "maintainability: " + "; ".join(parts)


#: Statements of an old rule named per amendment on the line (the rest counted).
STATEMENTS_SHOWN = 3


def continuity_text(kept: Continuity, style: Style) -> str:
    """Per amendment, in one line: the rule it replaced revised in the docs and docstrings, or
    still stated (where, and what)."""
    if not kept.amendments:
        return f"continuity: {style.prose(kept.why or 'not measured')}"
    parts = []
    for a in kept.amendments:
        amends = ", ".join(map(style.name, a.amends))
        label = f"{style.prose(a.amendment)} (session {a.session}, {amends}) {a.status}"
        shown = [
            f"{style.name(f'{s.file}:{s.line}')} ({style.prose(s.says)})"
            for s in a.statements[:STATEMENTS_SHOWN]
        ]
        more = a.statements_total - len(shown)
        if shown:
            label += ": " + ", ".join(shown) + (f", and {more} more" if more > 0 else "")
        parts.append(label)
    return "continuity: " + "; ".join(parts)


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"
