"""A scorecard as a check run: name, conclusion, output and annotations (pure).

Annotation paths name files of the evaluated sandbox repository (the tier's repository as the
agent left it), not of the repository that runs the workflow: GitHub lists them under the check
run's annotations; they appear inline in "Files changed" only where the paths coincide.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from specsnap.publish import markdown as md
from specsnap.publish.comment import RenderContext
from specsnap.publish.limits import (
    ANNOTATION_MESSAGE_MAX,
    ANNOTATION_TITLE_MAX,
    ANNOTATIONS_MAX,
    CHECK_SUMMARY_MAX,
    CHECK_TEXT_MAX,
    truncate,
)
from specsnap.publish.policy import FailOn, fails
from specsnap.publish.scorecard import Scorecard
from specsnap.publish.snapshot import Delta, embed_snapshot, snapshot_of

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
            "message": truncate(self.message, ANNOTATION_MESSAGE_MAX, "(truncated)"),
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


def check_name(prefix: str, card: Scorecard) -> str:
    """`SpecSnap (tier-2, seed 7)`: one check run per (tier, seed) cell."""
    return f"{prefix} ({card.label})"


def conclusion(card: Scorecard, fail_on: FailOn) -> str:
    if card.scores.passed:
        return "success"
    return "failure" if fails(card, fail_on) else "neutral"


def annotations_for(card: Scorecard) -> list[Annotation]:
    """Gate findings as failures, then lost requirements as warnings, in the scorecard's order."""
    found: list[Annotation] = []
    for v in card.gate.wiring_violations:
        found.append(
            Annotation(
                v.file,
                max(v.line, 1),
                "failure",
                f"Module boundary violated: {v.importer} → {v.imported}",
                f"{v.importer} imports {v.imported} ({v.kind or 'import'}), which wiring.yaml "
                f"forbids: {v.rule}.",
            )
        )
    for c in card.gate.protected_changes:
        found.append(
            Annotation(
                c.path,
                1,
                "failure",
                f"Protected file {c.change}",
                f"{c.path} is protected by the tier and must stay byte-identical to the starter; "
                f"at HEAD it is {c.change}.",
            )
        )
    for f in card.gate.baseline_failures:
        found.append(
            Annotation(
                f.test.split("::", 1)[0],
                1,
                "failure",
                f"Baseline test {f.outcome}",
                f"{f.test} must keep passing; it {f.outcome}.",
            )
        )
    for r in card.requirements:
        if r.passed:
            continue
        failing = "\n".join(f"{t.test}: {t.outcome}" for t in r.failing_tests)
        found.append(
            Annotation(
                f"{r.package}/__init__.py",
                1,
                "warning",
                f"Requirement {r.id} not retained",
                f"{r.id} ({r.title}) is not retained; its hidden tests:\n{failing}",
            )
        )
    return found


def render_check_run(
    card: Scorecard,
    delta: Delta | None,
    report: str,
    context: RenderContext,
    name_prefix: str,
    fail_on: FailOn,
) -> CheckRunOutput:
    """The check run for `card`; `report` is the engine's full Markdown scorecard."""
    annotations = annotations_for(card)
    shown, omitted = annotations[:ANNOTATIONS_MAX], max(0, len(annotations) - ANNOTATIONS_MAX)
    lines = [md.headline(card), "", *md.table_header(), md.score_row(card, delta), ""]
    if delta is not None:
        lines.append(f"Changes are against {md.code(delta.base.commit[:7] or 'the base branch')}.")
    if omitted:
        lines.append(
            f"> [!WARNING]\n> {omitted} of {len(annotations)} annotations were left out "
            f"(SpecSnap sends at most {ANNOTATIONS_MAX}); the scorecard lists every finding."
        )
    if context.run_url:
        lines.append(f"[Workflow run]({context.run_url})")
    lines += ["", md.details_body(card, delta)]
    marker = embed_snapshot(snapshot_of(card))
    summary = truncate("\n".join(lines), CHECK_SUMMARY_MAX - len(marker) - 2, TEXT_TRUNCATED)
    return CheckRunOutput(
        name=check_name(name_prefix, card),
        conclusion=conclusion(card, fail_on),
        title=md.headline(card),
        summary=summary + "\n\n" + marker,
        text=truncate(report, CHECK_TEXT_MAX, TEXT_TRUNCATED),
        annotations=tuple(shown),
        omitted_annotations=omitted,
    )
