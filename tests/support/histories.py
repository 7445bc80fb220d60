"""Small real git histories for tests of what SpecSnap reads from a sandbox's history."""

from __future__ import annotations

import subprocess
from pathlib import Path


def git(repo: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-C", str(repo), *args], check=True, capture_output=True, text=True
    ).stdout.strip()


def commit(repo: Path, files: dict[str, str | None]) -> str:
    """Commit `files` (None deletes one); the new commit's id."""
    for path, text in files.items():
        target = repo / path
        if text is None:
            target.unlink()
        else:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text)
    git(repo, "add", "-A")
    git(
        repo,
        "-c",
        "user.name=t",
        "-c",
        "user.email=t@t",
        "commit",
        "-q",
        "--allow-empty",
        "-m",
        "c",
    )
    return git(repo, "rev-parse", "HEAD")


def new_repo(path: Path, files: dict[str, str | None]) -> Path:
    path.mkdir(parents=True, exist_ok=True)
    git(path, "init", "-q")
    commit(path, files)
    return path
