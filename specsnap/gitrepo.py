"""Git, run defensively: the repository belongs to the agent under test, so SpecSnap never lets
its config, hooks or attributes run anything, and reads commits through plumbing only."""

from __future__ import annotations

import os
import subprocess
from dataclasses import dataclass
from pathlib import Path

from specsnap.errors import InfrastructureError

BASELINE_IDENTITY = {
    "GIT_AUTHOR_NAME": "SpecSnap",
    "GIT_AUTHOR_EMAIL": "baseline@specsnap.invalid",
    "GIT_AUTHOR_DATE": "2025-01-01T00:00:00+0000",
    "GIT_COMMITTER_NAME": "SpecSnap",
    "GIT_COMMITTER_EMAIL": "baseline@specsnap.invalid",
    "GIT_COMMITTER_DATE": "2025-01-01T00:00:00+0000",
}

# Settings that stop a hostile repository config from running programs or rewriting content.
_SAFE_CONFIG = (
    "-c",
    "core.hooksPath=/dev/null",
    "-c",
    "core.fsmonitor=false",
    "-c",
    "safe.directory=*",
    "-c",
    "core.sshCommand=false",
    "-c",
    "protocol.allow=never",
)


class GitError(InfrastructureError):
    """A git command SpecSnap relies on failed."""


def git_env(extra: dict[str, str] | None = None) -> dict[str, str]:
    """A minimal environment for git: no global or system config, no prompts."""
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": "/nonexistent",
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_CONFIG_GLOBAL": "/dev/null",
        "GIT_TERMINAL_PROMPT": "0",
        # Replace refs would let a repository show another commit's content under HEAD's id.
        "GIT_NO_REPLACE_OBJECTS": "1",
        "LC_ALL": "C",
    }
    env.update(extra or {})
    return env


def git(
    repo: Path,
    *args: str,
    input: bytes | None = None,
    env: dict[str, str] | None = None,
    check: bool = True,
) -> bytes:
    """Run `git args` in `repo` with the safe settings; stdout as bytes."""
    proc = subprocess.run(
        ["git", *_SAFE_CONFIG, *args],
        cwd=repo,
        input=input,
        env=git_env(env),
        capture_output=True,
        check=False,
    )
    if check and proc.returncode != 0:
        raise GitError(
            f"git {' '.join(args)} failed in {repo} ({proc.returncode}): "
            f"{proc.stderr.decode(errors='replace').strip()}"
        )
    return proc.stdout


def rev_parse(repo: Path, rev: str = "HEAD") -> str | None:
    """The commit id `rev` names, or None when the repository has no such commit."""
    if not (repo / ".git").exists():
        return None
    out = git(repo, "rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}", check=False)
    return out.decode().strip() or None


def commits_between(repo: Path, old: str, new: str) -> list[str]:
    """Commit ids reachable from `new` but not from `old`, oldest first."""
    out = git(repo, "rev-list", "--reverse", f"{old}..{new}", check=False)
    return out.decode().split()


def create_baseline(repo: Path, message: str) -> str:
    """Make `repo` a fresh repository with one deterministic commit of its whole tree."""
    git(repo, "init", "-q", "-b", "main")
    git(repo, "config", "core.logAllRefUpdates", "false")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "--no-verify", "-m", message, env=BASELINE_IDENTITY)
    for name in ("description", "COMMIT_EDITMSG", "ORIG_HEAD"):
        (repo / ".git" / name).unlink(missing_ok=True)
    for sample in (repo / ".git" / "hooks").glob("*.sample"):
        sample.unlink()
    commit = rev_parse(repo)
    if commit is None:
        raise GitError(f"baseline commit missing in {repo}")
    return commit


@dataclass(frozen=True)
class TreeEntry:
    mode: str  # 100644, 100755, 120000 (160000 submodules are skipped)
    blob: str
    path: str


def list_tree(repo: Path, commit: str) -> list[TreeEntry]:
    """Every file of `commit`'s tree, read with plumbing (no filters, no attributes)."""
    out = git(repo, "ls-tree", "-r", "-z", "--full-tree", commit)
    entries = []
    for record in out.split(b"\0"):
        if not record:
            continue
        meta, path = record.split(b"\t", 1)
        mode, kind, blob = meta.decode().split()
        if kind == "blob":
            entries.append(TreeEntry(mode, blob, os.fsdecode(path)))
    return entries


def export_commit(repo: Path, commit: str, dest: Path) -> None:
    """Write `commit`'s tree into the empty directory `dest`, byte for byte, modes kept.

    Blobs come raw from `git cat-file --batch`, so no clean/smudge filter, `export-subst` or
    `export-ignore` attribute of the agent's can change what is graded.
    """
    entries = list_tree(repo, commit)
    request = b"".join(e.blob.encode() + b"\n" for e in entries)
    out = git(repo, "cat-file", "--batch", input=request)
    pos = 0
    for entry in entries:
        header_end = out.index(b"\n", pos)
        _sha, _kind, size = out[pos:header_end].split()
        start = header_end + 1
        content = out[start : start + int(size)]
        pos = start + int(size) + 1
        target = dest / entry.path
        if not target.resolve().is_relative_to(dest.resolve()):
            raise GitError(f"refusing to export {entry.path!r}: it leaves the export directory")
        target.parent.mkdir(parents=True, exist_ok=True)
        if entry.mode == "120000":
            os.symlink(content, target)
        else:
            target.write_bytes(content)
            target.chmod(0o755 if entry.mode == "100755" else 0o644)
