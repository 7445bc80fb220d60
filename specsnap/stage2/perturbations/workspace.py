"""Changing the agent's workspace between sessions, as root, without trusting anything in it.

The sandbox belongs to the agent under test, so every write here refuses a path that passes
through a symlink or lands on anything but a regular file, and replaces files by renaming a new
one into place (a hard link the agent made elsewhere never sees the write). Git never runs in
the agent's repository (specsnap.sandbox.gitrepo): it runs in a borrowed one with SpecSnap's config,
and SpecSnap copies back the objects, the ref and the index it keeps.

A teammate's commit is made with plumbing on a private index, on top of HEAD, and the agent's
working tree follows it the way a rebase of uncommitted work would: files the agent did not
touch take the new content, files it changed are merged three ways (a move carries the
agent's change along), and a conflict leaves everything as it was.
"""

from __future__ import annotations

import difflib
import hashlib
import os
import stat
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from specsnap.sandbox.gitrepo import (
    GitError,
    borrowed,
    git,
    git_env,
    keep_objects,
    list_tree,
    put_index,
    read_objects,
    rev_parse,
    set_ref,
)

#: Who the teammate is, and when their commits are dated: fixed, so that the same run makes the
#: same commits (and so the same scorecard).
TEAMMATE_NAME = "Robin Mercer"
TEAMMATE_EMAIL = "robin.mercer@team.specsnap.invalid"
TEAMMATE_DATE = "2025-01-02T09:00:00+0000"


class NotApplicable(Exception):
    """The perturbation cannot be made on this workspace (the message says why): the run is not
    a complete Stage II run."""


class NothingCarried(NotApplicable):
    """The workspace carries nothing this perturbation changes (no note, say): the run is
    still complete."""


@dataclass(frozen=True)
class FileChange:
    """A file a perturbation changed: its git blob id before and after (None: no file)."""

    path: str
    before: str | None
    after: str | None


@dataclass(frozen=True)
class Commit:
    id: str
    parent: str
    changes: tuple[FileChange, ...]


def blob_id(content: bytes) -> str:
    """The id git gives `content` as a blob (SHA-1 repositories, as SpecSnap creates them)."""
    return hashlib.sha1(b"blob %d\0" % len(content) + content).hexdigest()


def head_blobs(repo: Path, commit: str = "HEAD") -> dict[str, tuple[str, str]]:
    """path -> (mode, blob id) of every file of `commit`, read from checked objects."""
    return {e.path: (e.mode, e.blob) for e in list_tree(repo, commit)}


def blob_content(repo: Path, blob: str) -> bytes:
    return read_objects(repo, [blob])[blob][1]


def read_file(repo: Path, rel: str, inside_git: bool = False) -> bytes | None:
    """The content of the regular file `rel` of the working tree (or, with `inside_git`, of
    `.git`); None if there is none. NotApplicable if the path passes through a symlink or is not
    a regular file."""
    path = _checked(repo, rel, inside_git)
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return None
    if not stat.S_ISREG(info.st_mode):
        raise NotApplicable(f"{rel} is not a regular file in the workspace")
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
    with os.fdopen(fd, "rb") as handle:
        return handle.read()


def write_file(
    repo: Path, rel: str, content: bytes | None, executable: bool = False, inside_git: bool = False
) -> None:
    """Put `content` at `rel` (None: remove it), renaming a new file into place."""
    path = _checked(repo, rel, inside_git)
    if content is None:
        if os.path.lexists(path):
            os.unlink(path)
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.specsnap-tmp")
    if os.path.lexists(tmp):
        os.unlink(tmp)
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
    with os.fdopen(fd, "wb") as handle:
        handle.write(content)
    os.chmod(tmp, 0o755 if executable else 0o644)
    os.replace(tmp, path)


def _checked(repo: Path, rel: str, inside_git: bool = False) -> Path:
    parts = PurePosixPath(rel).parts
    in_git = bool(parts) and parts[0] == ".git" and not inside_git
    if not parts or PurePosixPath(rel).is_absolute() or ".." in parts or in_git:
        raise NotApplicable(f"{rel!r} is not a path inside the workspace")
    current = repo
    for part in parts[:-1]:
        current = current / part
        try:
            info = os.lstat(current)
        except FileNotFoundError:
            break
        if not stat.S_ISDIR(info.st_mode):
            raise NotApplicable(f"{rel}: {current.relative_to(repo)} is not a plain directory")
    final = repo / rel
    if os.path.islink(final):
        raise NotApplicable(f"{rel} is a symlink in the workspace")
    return final


def set_index(repo: Path, changes: list[tuple[str, str | None, str]]) -> str | None:
    """Point the agent's index at (path, blob or None to remove, mode); a note if it failed (a
    lock left by the killed agent, say): the working tree is right either way."""
    zero = "0" * 40
    info = "".join(
        f"{mode if blob else 0} {blob or zero}\t{path}\0" for path, blob, mode in changes
    )  # NUL-separated: a git path may hold a newline
    try:
        with borrowed(repo, index=True) as made:
            git(repo, "update-index", "-z", "--index-info", input=info.encode(), borrowed_as=made)
            put_index(repo, made)
    except GitError as exc:
        return f"the index could not follow: {exc}"
    return None


def commit_as_teammate(repo: Path, patch: str, message: str) -> Commit:
    """Commit `patch` on top of HEAD as the teammate, and bring the working tree along."""
    head = rev_parse(repo)
    if head is None:
        raise NotApplicable("the repository has no HEAD to commit on")
    env = {
        "GIT_AUTHOR_NAME": TEAMMATE_NAME,
        "GIT_AUTHOR_EMAIL": TEAMMATE_EMAIL,
        "GIT_AUTHOR_DATE": TEAMMATE_DATE,
        "GIT_COMMITTER_NAME": TEAMMATE_NAME,
        "GIT_COMMITTER_EMAIL": TEAMMATE_EMAIL,
        "GIT_COMMITTER_DATE": TEAMMATE_DATE,
    }
    with borrowed(repo) as made:
        env["GIT_INDEX_FILE"] = str(made / "teammate-index")
        git(repo, "read-tree", head, env=env, borrowed_as=made)
        try:
            git(repo, "apply", "--cached", "--3way", "--whitespace=nowarn", "-",
                input=patch.encode(), env=env, borrowed_as=made)  # fmt: skip
        except GitError as exc:
            raise NotApplicable(f"the teammate's patch does not apply to HEAD: {exc}") from None
        tree = git(repo, "write-tree", env=env, borrowed_as=made).decode().strip()
        commit = git(
            repo, "commit-tree", tree, "-p", head, "-m", message, env=env, borrowed_as=made
        )
        new = commit.decode().strip()
        entries = _tree_changes(repo, head, new, made)
        keep_objects(made, repo)
        writes = _follow(repo, entries)
        set_ref(repo, made, new)
    for rel, content, executable in writes:
        write_file(repo, rel, content, executable)
    index: list[tuple[str, str | None, str]] = []
    changes: list[FileChange] = []
    for old_path, new_path, old_blob, new_blob, mode in entries:
        if old_path is not None and new_path is not None and old_path != new_path:  # a move
            changes += [FileChange(old_path, old_blob, None), FileChange(new_path, None, new_blob)]
            index += [(old_path, None, mode), (new_path, new_blob, mode)]
        else:
            path = new_path or old_path or ""
            changes.append(FileChange(path, old_blob, new_blob))
            index.append((path, new_blob, mode))
    set_index(repo, index)
    return Commit(new, head, tuple(changes))


Entry = tuple[str | None, str | None, str | None, str | None, str]


def _tree_changes(repo: Path, old: str, new: str, made: Path) -> list[Entry]:
    """(old path, new path, old blob, new blob, new mode) of each file `new` changes; a
    rename has both paths."""
    raw = git(repo, "diff-tree", "-r", "-M", "-z", old, new, borrowed_as=made).split(b"\0")
    entries: list[Entry] = []
    i = 0
    while i < len(raw) and raw[i]:
        meta = raw[i].decode().lstrip(":").split()
        _old_mode, new_mode, old_blob, new_blob, status = meta
        if "120000" in (_old_mode, new_mode):
            raise NotApplicable("the teammate's patch touches a symlink")
        if status.startswith(("R", "C")):
            src, dst = os.fsdecode(raw[i + 1]), os.fsdecode(raw[i + 2])
            entries.append((src, dst, old_blob, new_blob, new_mode))
            i += 3
            continue
        path = os.fsdecode(raw[i + 1])
        zero = "0" * len(old_blob)
        entries.append(
            (
                path if old_blob != zero else None,
                path if new_blob != zero else None,
                old_blob if old_blob != zero else None,
                new_blob if new_blob != zero else None,
                new_mode if new_blob != zero else _old_mode,
            )
        )
        i += 2
    return entries


def _follow(repo: Path, entries: list[Entry]) -> list[tuple[str, bytes | None, bool]]:
    """What the working tree becomes: (path, content or None, executable) for every path the
    commit changed. NotApplicable on a conflict with what the agent has not committed."""
    writes: list[tuple[str, bytes | None, bool]] = []
    for old_path, new_path, old_blob, new_blob, mode in entries:
        base = blob_content(repo, old_blob) if old_blob else None
        theirs = blob_content(repo, new_blob) if new_blob else None
        ours = read_file(repo, old_path) if old_path else None
        if new_path and new_path != old_path and read_file(repo, new_path) is not None:
            raise NotApplicable(f"the workspace already has a file at {new_path}")
        if ours in (base, theirs):
            result = theirs
        elif base is not None and theirs is not None and ours is not None:
            result = _merge(ours, base, theirs, old_path or "")
        else:
            raise NotApplicable(f"it conflicts with the agent's uncommitted change to {old_path}")
        if old_path and new_path != old_path:
            writes.append((old_path, None, False))
        if new_path:
            writes.append((new_path, result, mode == "100755"))
    return writes


def _merge(ours: bytes, base: bytes, theirs: bytes, path: str) -> bytes:
    with tempfile.TemporaryDirectory(prefix="specsnap-merge-") as tmp:
        files = [Path(tmp) / name for name in ("ours", "base", "theirs")]
        for file, data in zip(files, (ours, base, theirs), strict=True):
            file.write_bytes(data)
        proc = subprocess.run(
            ["git", "merge-file", "-p", *map(str, files)],
            capture_output=True,
            env=git_env({"GIT_CEILING_DIRECTORIES": str(Path(tmp).parent)}),  # no repository
            cwd=tmp,
            check=False,
        )
    if proc.returncode != 0:
        raise NotApplicable(f"it conflicts with the agent's uncommitted change to {path}")
    return proc.stdout


@dataclass(frozen=True)
class Lost:
    """A file whose uncommitted content was lost: the change, and the lines it had added."""

    change: FileChange
    added: tuple[str, ...]


def restore_from_head(repo: Path, paths: list[str]) -> list[Lost]:
    """Put each of `paths` back to its content at HEAD (removing it if HEAD has none), in the
    working tree and the index: uncommitted work there is lost. What was lost; paths that held
    nothing uncommitted are left out."""
    head = head_blobs(repo)
    lost_files = []
    index: list[tuple[str, str | None, str]] = []
    for rel in paths:
        current = read_file(repo, rel)
        mode, blob = head.get(rel, ("100644", None))
        lost = blob_id(current) if current is not None else None
        if lost == blob:
            continue
        restored = blob_content(repo, blob) if blob else None
        write_file(repo, rel, restored, mode == "100755")
        index.append((rel, blob, mode))
        added = added_lines(restored or b"", current or b"")
        lost_files.append(Lost(FileChange(rel, lost, blob), added))
    set_index(repo, index)
    return lost_files


def added_lines(old: bytes, new: bytes) -> tuple[str, ...]:
    """The lines `new` adds to `old`, stripped, blank ones left out."""
    a = old.decode("utf-8", "replace").splitlines()
    b = new.decode("utf-8", "replace").splitlines()
    ops = difflib.SequenceMatcher(a=a, b=b, autojunk=False).get_opcodes()
    lines = (
        line.strip() for op in ops if op[0] in ("replace", "insert") for line in b[op[3] : op[4]]
    )
    return tuple(line for line in lines if line)
