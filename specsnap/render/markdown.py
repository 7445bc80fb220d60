"""scorecard.md: the whole scorecard as GitHub-flavoured Markdown (pure).

The check run's text and the job summary show the same document, rendered again from the
scorecard rather than read from a file beside it: a Markdown file in an artifact is not trusted.
"""

from __future__ import annotations

from specsnap.render import blocks
from specsnap.render.markup import code, text
from specsnap.render.words import (
    faults_story,
    gate_state,
    mark,
    pass_rule,
    percent,
    recovery_story,
    requirement_counts,
    tes_text,
    verdict,
)
from specsnap.render.work_words import WORK_TITLE
from specsnap.scorecard.model import Scorecard


def render_markdown(card: Scorecard) -> str:
    """The scorecard as Markdown, ending with its receipt."""
    s = card.scores
    tokens = "unknown" if s.effective_tokens is None else f"{s.effective_tokens:,.0f}"
    stage = " · Stage II" if card.stage == 2 else ""
    kept = s.retained_without_recovery
    lines = [
        f"## SpecSnap · {text(card.tier_id)} · {code(card.agent.name)} · seed {card.seed}{stage} · "
        f"{mark(card.passed)} **{verdict(card.passed)}**",
        "",
        ("" if kept is None else "| Retained without recovery ")
        + "| Net retention | Raw retention | TES | Effective tokens / budget | Regression gate |",
        ("" if kept is None else "|--:") + "|--:|--:|--:|--:|:--|",
        ("" if kept is None else f"| {percent(kept)} ")
        + f"| {percent(s.net_retention)} | {percent(s.raw_retention)} | {tes_text(s.tes)} "
        f"| {tokens} / {s.budget:,} | {mark(card.gate.holds)} {gate_state(card.gate.holds)} |",
        "",
        f"Tier {text(card.tier_id)} ({text(card.tier_name)}); {pass_rule(s)}. {_agent(card)}",
        "",
    ]
    if card.stage2 is not None:  # beside the scores: which channel they used
        lines += [f"Stage II: {recovery_story(card.stage2)}; {faults_story(card.stage2)}.", ""]
    if not card.official:
        lines += [*blocks.unofficial_lines(card), ""]
    findings = blocks.findings_lines(card)
    lines += [
        *(findings or ["Regression gate holds: baseline, protected files, boundaries, protocol."]),
        "",
    ]
    lines += [f"### Requirements ({requirement_counts(card)})", ""]
    lines += [*blocks.requirements_table(card), ""]
    lines += ["### Sessions", "", *blocks.sessions_table(card), ""]
    if card.work is not None:
        lines += [f"### {WORK_TITLE}", "", *blocks.work_lines(card), ""]
    if card.stage2 is not None:
        lines += ["### Stage II: adversarial state perturbation", ""]
        lines += [*blocks.stage2_lines(card), ""]
    lines += [_grading(card), "", _receipt(card), ""]
    return "\n".join(lines)


def _agent(card: Scorecard) -> str:
    options = ", ".join(code(f"{k}={v}") for k, v in card.agent.options.items())
    return f"Agent {code(card.agent.name)}" + (f" with {options}." if options else ".")


def _grading(card: Scorecard) -> str:
    g = card.grading
    parts = []
    if g.tests_collected is not None:
        parts.append(f"{g.tests_collected} of {g.tests_expected} tests collected")
    if g.pytest_exit_code is not None:
        parts.append(f"pytest exit code {g.pytest_exit_code}")
    if g.network_isolated is not None:
        parts.append("network isolated" if g.network_isolated else "network not isolated")
    if g.isolation:
        parts.append(f"isolation: {text(g.isolation)}")
    if g.shared_state:
        parts.append(f"shared state: {text(g.shared_state)}")
    if g.run_problem:
        parts.append(f"problem: {text(g.run_problem)}")
    return "Grading: " + ("; ".join(parts) or "no test run") + "."


def _receipt(card: Scorecard) -> str:
    r = card.receipt
    return (
        f"<sub>receipt: scorecard {code(r.scorecard_sha256[:16])} · "
        f"tree {code((r.sandbox_tree_sha256 or 'none')[:16])} · "
        f"tier {code(r.tier_sha256[:16])} · commit {code((r.head_commit or 'none')[:12])} · "
        f"SpecSnap {text(r.specsnap_version)} · check it with "
        "`specsnap verify scorecard.json --run RUN_DIR`</sub>"
    )
