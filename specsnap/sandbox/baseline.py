"""Prepare's sandbox work: the tier's starter copied in and committed once (docs/protocol.md)."""

from __future__ import annotations

import shutil
from pathlib import Path

from specsnap.sandbox.gitrepo import create_baseline, own_git

BASELINE_MESSAGE = "Baseline"


def plant_baseline(starter: Path, sandbox: Path) -> str:
    """Copy `starter` to `sandbox` and make its one baseline commit; the commit id depends on
    nothing else, so a verifier can make it again and compare."""
    shutil.copytree(
        starter,
        sandbox,
        symlinks=True,
        ignore=shutil.ignore_patterns("__pycache__", ".pytest_cache"),
    )
    return create_baseline(sandbox, BASELINE_MESSAGE)


def prepare_sandbox(starter: Path, sandbox: Path) -> str:
    """The run's sandbox, planted and ready for an agent; its baseline commit. Agents start with
    an empty HOME, so the repository carries a committer identity."""
    commit = plant_baseline(starter, sandbox)
    own_git(sandbox, "config", "user.name", "Developer")
    own_git(sandbox, "config", "user.email", "developer@example.invalid")
    return commit
