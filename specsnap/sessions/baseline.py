"""Tier 1's baseline check: whether a commit of session 1 completes TASK.md's work, which is
what releases the product note and arms the cutoff (docs/tiers.md, tier 1).

The commit is judged the way grading judges the final one, outside the agent's reach: a fresh
export of the commit (never the working tree), the tier's hidden baseline tests in the judge,
the starter's visible tests from the grader's pristine copy in a subject. The agent only ever
hears the note or nothing; never what was checked or why it failed.

A verdict is a function of the tier, the commit's tree and the run's parameters, so it is kept
for the process's life, by the tree's id (git checks every object it reads against its id):
runs of one process (a test over many seeds) judge the same baseline tree once.
"""

from __future__ import annotations

import json
import threading
from dataclasses import replace
from pathlib import Path
from typing import Any

from specsnap.grading import grade_tree
from specsnap.grading.isolation import grading_workspace, subject_launchers
from specsnap.sandbox.gitrepo import GitError, export_commit, tree_of
from specsnap.tier.model import Tier

_VERDICTS: dict[tuple[str, str, str], bool] = {}
_LOCK = threading.Lock()


def baseline_done(tier: Tier, repo: Path, commit: str, params: dict[str, Any]) -> bool:
    """Whether every baseline test (hidden and visible) passes at `commit` of `repo`.

    A commit that cannot be exported is not done. An infrastructure failure raises
    InfrastructureError, as grading does.
    """
    try:
        key = (str(tier.root), tree_of(repo, commit), json.dumps(params, sort_keys=True))
    except (GitError, OSError, ValueError):
        return False
    with _LOCK:
        if key not in _VERDICTS:
            _VERDICTS[key] = _judge(tier, repo, commit, params)
        return _VERDICTS[key]


def _judge(tier: Tier, repo: Path, commit: str, params: dict[str, Any]) -> bool:
    with subject_launchers() as subjects, grading_workspace(subjects.first) as work:
        export = work / "export"
        export.mkdir()
        try:
            export_commit(repo, commit, export)
        except (GitError, OSError, ValueError):
            return False
        # The baseline tests alone: the sprint's tests cannot change this verdict.
        baseline_only = replace(tier, requirements=())
        grade = grade_tree(baseline_only, export, work, subjects, commit, params)
    return bool(grade.gate.baseline_ok)
