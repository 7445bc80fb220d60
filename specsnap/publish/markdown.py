"""Small Markdown building blocks shared by the comment and check-run renderers (pure).

Anything the agent under test controls (file names, module names) is shown in code spans, so it
can neither inject Markdown or HTML nor @-mention anyone.
"""

from __future__ import annotations

from collections.abc import Sequence

from specsnap.publish.scorecard import Scorecard
from specsnap.publish.snapshot import Delta

PASSED = "✅"
FAILED = "❌"
#: Longest list shown inside one details section; the rest is counted, not listed.
LIST_MAX = 25


def code(text: str) -> str:
    """`text` as an inline code span that survives backticks, pipes and newlines."""
    flat = " ".join(str(text).split()).replace("|", "\\|")
    fence = "``" if "`" in flat else "`"
    pad = " " if fence == "``" else ""
    return f"{fence}{pad}{flat}{pad}{fence}"


def plain(text: str) -> str:
    """`text` (from a tier author, not the agent) safe inside a table cell."""
    flat = " ".join(str(text).split())
    for char, escaped in (("&", "&amp;"), ("<", "&lt;"), (">", "&gt;"), ("|", "\\|")):
        flat = flat.replace(char, escaped)
    return flat


def percent(value: float) -> str:
    return f"{value * 100:.1f}%"


def tes_text(value: float | None) -> str:
    """TES is a fraction like the retentions, shown the same way; unknown tokens: n/a."""
    return "n/a" if value is None else percent(value)


def points(delta: float) -> str:
    """A signed change of a fraction, in percentage points."""
    if abs(delta) < 0.0005:
        return "±0"
    arrow = "▲" if delta > 0 else "▼"
    return f"{arrow} {abs(delta) * 100:.1f}"


def verdict(card: Scorecard) -> str:
    return f"{PASSED} passed" if card.scores.passed else f"{FAILED} not passed"


def gate_text(card: Scorecard) -> str:
    return f"{PASSED} holds" if card.gate.holds else f"{FAILED} broken"


def table_header() -> list[str]:
    return [
        "| Run | Net retention | Raw retention | TES | Gate | Result |",
        "|:--|--:|--:|--:|:--|:--|",
    ]


def score_row(card: Scorecard, delta: Delta | None) -> str:
    """One table row; with a delta, every score shows its change against the base."""
    net, raw, tes = percent(card.scores.net_retention), percent(card.scores.raw_retention), ""
    tes = tes_text(card.scores.tes)
    result = verdict(card)
    if delta is not None:
        net += f" ({points(delta.net_retention)})"
        raw += f" ({points(delta.raw_retention)})"
        if delta.tes is not None:
            tes += f" ({points(delta.tes)})"
        if delta.pass_changed:
            result += f" (was {PASSED if delta.base.passed else FAILED})"
    return f"| {plain(card.label)} | {net} | {raw} | {tes} | {gate_text(card)} | {result} |"


def bounded(lines: Sequence[str], what: str) -> list[str]:
    """At most LIST_MAX lines, then one line saying how many more `what` there are."""
    shown = list(lines[:LIST_MAX])
    if len(lines) > LIST_MAX:
        shown.append(f"- … and {len(lines) - LIST_MAX} more {what} (see the scorecard artifact)")
    return shown


def details_body(card: Scorecard, delta: Delta | None) -> str:
    """Which requirements were lost, what changed against the base, and why the gate broke."""
    out: list[str] = []
    lost = [r for r in card.requirements if not r.passed]
    total = len(card.requirements)
    if lost:
        out.append(f"**Requirements not retained** ({len(lost)} of {total})")
        out.append("")
        lines = []
        for r in lost:
            failing = ", ".join(f"{code(t.test)} ({t.outcome})" for t in r.failing_tests[:3])
            more = len(r.failing_tests) - 3
            failing += f" and {more} more" if more > 0 else ""
            lines.append(f"- {code(r.id)} {plain(r.title)} — `{r.package}`: {failing}")
        out.extend(bounded(lines, "requirements"))
    else:
        out.append(f"**All {total} requirements retained.**")
    if delta is not None and (delta.newly_failed or delta.newly_passed):
        out.append("")
        if delta.newly_failed:
            out.append(f"Newly lost since the base: {', '.join(map(code, delta.newly_failed))}")
        if delta.newly_passed:
            out.append(f"Newly retained since the base: {', '.join(map(code, delta.newly_passed))}")
    if not card.gate.holds:
        out.extend(["", "**Regression gate broken** — net retention counts as 0:", ""])
        out.extend(bounded(gate_lines(card), "gate findings"))
    return "\n".join(out)


def gate_lines(card: Scorecard) -> list[str]:
    gate = card.gate
    lines = [f"- baseline test {code(f.test)} {f.outcome}" for f in gate.baseline_failures]
    lines += [f"- protected file {code(c.path)} {c.change}" for c in gate.protected_changes]
    lines += [
        f"- boundary: {code(f'{v.file}:{v.line}')} {code(v.importer)} imports "
        f"{code(v.imported)} — {plain(v.rule)}"
        for v in gate.wiring_violations
    ]
    lines += [
        f"- protocol breach{f' in session {b.session}' if b.session else ''}: {plain(b.what)}"
        for b in gate.protocol_breaches
    ]
    if not lines:
        lines.append("- the engine reported the gate broken without findings")
    return lines


def headline(card: Scorecard) -> str:
    """One line: the verdict and the scores that decided it."""
    reasons = "" if card.gate.holds else " (regression gate broken)"
    return (
        f"{'Passed' if card.scores.passed else 'Not passed'}{reasons}: "
        f"net {percent(card.scores.net_retention)}, raw {percent(card.scores.raw_retention)}, "
        f"TES {tes_text(card.scores.tes)}"
    )
