"""The quality part of work.json: the agent's own tests and the diff's maintainability, from the
sandbox's history between the baseline and the graded commit."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from specsnap.errors import InfrastructureError
from specsnap.quality.agent_tests import measure_agent_tests
from specsnap.quality.continuity import continuity
from specsnap.quality.maintainability import maintainability
from specsnap.quality.source import snapshot
from specsnap.sandbox.gitrepo import GitError, rev_parse
from specsnap.tier.model import Tier
from specsnap.tier.solutions import rendered_patch, requirement_patches


def quality_report(
    tier: Tier,
    sandbox: Path,
    baseline: str,
    values: Mapping[str, Any],
    reached: int | None = None,
) -> dict[str, Any]:
    """{"agent_tests": ..., "maintainability": ..., "continuity": ...} for HEAD of `sandbox`
    against `baseline` (continuity only for a tier with amendments; `reached`: the last session
    the run started, None for all); each is {"why": ...} alone when it could not be measured."""
    try:
        head_commit = rev_parse(sandbox)
        if head_commit is None:
            raise GitError("the sandbox has no commit")
        base, head = snapshot(sandbox, baseline), snapshot(sandbox, head_commit)
    except (GitError, OSError, ValueError) as exc:
        why = {"why": f"not measured: the history could not be read ({exc})"}
        failed = {"agent_tests": why, "maintainability": why}
        return {**failed, "continuity": why} if tier.amendments else failed
    try:
        tests = measure_agent_tests(tier, base, head, values)
    except (InfrastructureError, OSError) as exc:  # a signal never stops the grading
        tests = {"why": f"not measured: {exc}"}
    patches = requirement_patches(tier, [r.id for r in tier.requirements])
    signals = maintainability(
        base,
        head,
        sorted({r.package for r in tier.requirements}),
        tier.python_path,
        [rendered_patch(p, values) for p in patches],  # BASELINE's too: the agent's diff has it
    )
    report = {"agent_tests": tests, "maintainability": signals.as_dict()}
    if tier.amendments:
        report["continuity"] = continuity(tier, base, head, values, reached)
    return report
