"""A scorecard as a check run: name, conclusion, output and annotations (pure).

Annotation paths name files of the evaluated sandbox repository (the tier's repository as the
agent left it), not of the repository that runs the workflow: GitHub lists them under the check
run's annotations; they appear inline in "Files changed" only where the paths coincide.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from specsnap.render import blocks
from specsnap.render.comment import RenderContext
from specsnap.render.limits import (
    ANNOTATION_MESSAGE_MAX,
    ANNOTATION_TITLE_MAX,
    ANNOTATIONS_MAX,
    CHECK_SUMMARY_MAX,
    CHECK_TEXT_MAX,
    truncate,
    utf8_length,
)
from specsnap.render.markdown import render_markdown
from specsnap.render.markup import code, inert
from specsnap.render.words import GITHUB_PLAIN, finding_place, finding_text, finding_title, headline
from specsnap.render.work_words import RISKY_MOVES, WORK_NOTE, risky_move_text
from specsnap.scorecard.delta import Delta, embed_snapshot, snapshot_of
from specsnap.scorecard.model import Scorecard

TEXT_TRUNCATED = (
    "> [!WARNING]\n> Truncated to GitHub's 65,535-character limit for check run output; the whole "
    "scorecard is in the job summary and the workflow's scorecard artifact."
)


@dataclass(frozen=True)
class Annotation:
    """One check-run annotation (levels as the Checks API names them)."""

    path: str
    line: int
    level: str  # "failure" | "warning" | "notice"
    title: str
    message: str

    def as_api(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "start_line": self.line,
            "end_line": self.line,
            "annotation_level": self.level,
            "title": truncate(self.title, ANNOTATION_TITLE_MAX, "…"),
            "message": truncate(
                self.message, ANNOTATION_MESSAGE_MAX, "(truncated)", measure=utf8_length
            ),
        }


@dataclass(frozen=True)
class CheckRunOutput:
    name: str
    conclusion: str  # "success" | "failure" | "neutral"
    title: str
    summary: str
    text: str
    annotations: tuple[Annotation, ...]
    omitted_annotations: int


def check_name(prefix: str, label: str) -> str:
    """`SpecSnap (tier-2, seed 7)`: one check run per (tier, seed) cell (`Scorecard.label`)."""
    return f"{prefix} ({inert(label)})"


def annotations_for(card: Scorecard) -> list[Annotation]:
    """Gate findings as failures, lost requirements as warnings, then risky moves as notices,
    in the scorecard's order.

    Findings without a file (a breach in a session) are in the summary, not annotated."""
    found: list[Annotation] = []
    for finding in card.gate.findings:
        place = finding_place(finding)
        if place is None:
            continue
        path, line = place
        message = finding_text(finding, GITHUB_PLAIN)
        found.append(Annotation(path, line, "failure", finding_title(finding), message))
    for r in card.lost:
        failing = "\n".join(f"{inert(t.id)}: {inert(t.outcome)}" for t in r.failing_tests)
        found.append(
            Annotation(
                f"{r.package}/__init__.py",
                1,
                "warning",
                f"Requirement {inert(r.id)} not retained",
                f"{inert(r.id)} ({inert(r.title)}) is not retained; its hidden tests:\n{failing}",
            )
        )
    return found + _risky_annotations(card)


def _risky_annotations(card: Scorecard) -> list[Annotation]:
    """Risky moves in the history, as notices at their file (line 1: a move names no line)."""
    moves = card.work.risky_moves if card.work is not None else ()
    return [
        Annotation(
            m.file,
            1,
            "notice",
            f"Risky move: {RISKY_MOVES[m.kind]}",
            f"{risky_move_text(m, GITHUB_PLAIN)}; {WORK_NOTE}",
        )
        for m in moves
        if m.file is not None
    ]


def render_check_run(
    card: Scorecard,
    delta: Delta | None,
    context: RenderContext,
    name: str,
    conclusion: str,
) -> CheckRunOutput:
    """The check run for `card`: its scores and story in the summary, scorecard.md as text."""
    annotations = annotations_for(card)
    shown, omitted = annotations[:ANNOTATIONS_MAX], max(0, len(annotations) - ANNOTATIONS_MAX)
    kept = blocks.kept_column([card])
    lines = [
        headline(card),
        "",
        *blocks.score_header(kept),
        blocks.score_row(card, delta, kept),
        "",
    ]
    if delta is not None:
        lines.append(f"Changes are against {code(delta.base.commit[:7] or 'the base branch')}.")
    if omitted:
        lines.append(
            f"> [!WARNING]\n> {omitted} of {len(annotations)} annotations were left out "
            f"(SpecSnap sends at most {ANNOTATIONS_MAX}); the scorecard lists every finding."
        )
    if context.run_url:
        lines.append(f"[Workflow run]({context.run_url})")
    lines += ["", *blocks.details_body(card, delta)]
    marker = embed_snapshot(snapshot_of(card))
    summary = truncate("\n".join(lines), CHECK_SUMMARY_MAX - len(marker) - 2, TEXT_TRUNCATED)
    return CheckRunOutput(
        name=name,
        conclusion=conclusion,
        title=headline(card),
        summary=summary + "\n\n" + marker,
        text=truncate(render_markdown(card), CHECK_TEXT_MAX, TEXT_TRUNCATED),
        annotations=tuple(shown),
        omitted_annotations=omitted,
    )
