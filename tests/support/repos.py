"""Building graded repositories from a tier's starter and reference patches."""

from __future__ import annotations

import shutil
from pathlib import Path

from specsnap.sandbox.gitrepo import BASELINE_IDENTITY, create_baseline, own_git
from specsnap.tier.draws import values_for
from specsnap.tier.model import Tier
from specsnap.tier.solutions import rendered_patch


def commit_all(repo: Path, message: str = "work") -> None:
    own_git(repo, "add", "-A")
    own_git(
        repo, "commit", "-q", "--no-verify", "--allow-empty", "-m", message, env=BASELINE_IDENTITY
    )


def starter_repo(tier: Tier, dest: Path, patches: list[str] | None = None, seed: int = 0) -> Path:
    """A repository of the tier's starter at its baseline, with reference patches committed."""
    shutil.copytree(tier.starter, dest, ignore=shutil.ignore_patterns("__pycache__"))
    create_baseline(dest, "Baseline")
    values = values_for(tier, seed)
    for req_id in patches or []:
        text = rendered_patch(tier.solution / f"{req_id}.patch", values)
        own_git(dest, "apply", "--3way", "-", input=text.encode())
    if patches:
        commit_all(dest, "reference")
    return dest
