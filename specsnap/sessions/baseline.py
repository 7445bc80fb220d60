"""Tier 1's baseline check: whether a commit of session 1 completes TASK.md's work, which is
what releases the product note and arms the cutoff (docs/tiers.md, tier 1).

The commit is judged the way grading judges the final one, outside the agent's reach: a fresh
export of the commit (never the working tree), the tier's hidden baseline tests in the judge,
the starter's visible tests from the grader's pristine copy in a subject. The agent only ever
hears the note or nothing; never what was checked or why it failed.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from specsnap.gitrepo import GitError, export_commit
from specsnap.grading import grade_tree
from specsnap.grading.isolation import grading_workspace, subject_launchers
from specsnap.tiers import Tier


def baseline_done(tier: Tier, repo: Path, commit: str, params: dict[str, Any]) -> bool:
    """Whether every baseline test (hidden and visible) passes at `commit` of `repo`.

    A commit that cannot be exported is not done. An infrastructure failure raises
    InfrastructureError, as grading does.
    """
    with subject_launchers() as subjects, grading_workspace(subjects.first) as work:
        export = work / "export"
        export.mkdir()
        try:
            export_commit(repo, commit, export)
        except (GitError, OSError, ValueError):
            return False
        grade = grade_tree(tier, export, work, subjects, commit, params)
    return bool(grade.gate["baseline_ok"])

