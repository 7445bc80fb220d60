"""Git as SpecSnap reads the agent's repository: objects checked against their ids, no replace
refs or grafts, no `.git` that points elsewhere, and the state a reconciliation compares."""

from __future__ import annotations

import os
import zlib
from pathlib import Path

import pytest

from specsnap.grading import history_rewrites
from specsnap.sandbox.gitrepo import (
    BASELINE_IDENTITY,
    GitError,
    TamperedRepositoryError,
    create_baseline,
    export_commit,
    git,
    own_git,
    repo_state,
    rev_parse,
)


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "mod.py").write_text("x = 1\n")
    (root / "pkg" / "link.py").symlink_to("mod.py")
    create_baseline(root, "Baseline")
    return root


def blob_of(repo: Path, path: str) -> str:
    return git(repo, "rev-parse", f"HEAD:{path}").decode().strip()


def write_blob(repo: Path, content: bytes) -> str:
    return own_git(repo, "hash-object", "-w", "--stdin", input=content).decode().strip()


def test_export_writes_the_commit_byte_for_byte(repo: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    export_commit(repo, "HEAD", out)
    assert (out / "pkg" / "mod.py").read_text() == "x = 1\n"
    assert os.readlink(out / "pkg" / "link.py") == "mod.py"


def test_a_rewritten_object_file_is_refused(repo: Path, tmp_path: Path) -> None:
    blob = blob_of(repo, "pkg/mod.py")
    path = repo / ".git" / "objects" / blob[:2] / blob[2:]
    path.chmod(0o644)
    forged = b"x = 'all requirements done'\n"
    path.write_bytes(zlib.compress(b"blob %d\0" % len(forged) + forged))
    assert git(repo, "cat-file", "-p", blob) == forged  # git itself would serve the forgery
    with pytest.raises(TamperedRepositoryError, match=blob):
        export_commit(repo, "HEAD", tmp_path)


def test_replace_refs_and_grafts_are_ignored(repo: Path, tmp_path: Path) -> None:
    head = rev_parse(repo)
    assert head is not None
    forged = write_blob(repo, b"x = 'replaced'\n")
    own_git(repo, "replace", blob_of(repo, "pkg/mod.py"), forged)
    (repo / "pkg" / "mod.py").write_text("x = 2\n")
    own_git(repo, "commit", "-qam", "two", env=BASELINE_IDENTITY)
    (repo / ".git" / "info").mkdir(exist_ok=True)
    (repo / ".git" / "info" / "grafts").write_text(f"{rev_parse(repo)}\n")  # "no parents"
    out = tmp_path / "out"
    out.mkdir()
    export_commit(repo, head, out)
    assert (out / "pkg" / "mod.py").read_text() == "x = 1\n"
    assert git(repo, "rev-list", "--count", "HEAD").strip() == b"2"


@pytest.mark.parametrize("kind", ["gitfile", "symlink"])
def test_a_git_dir_that_points_elsewhere_is_not_followed(
    repo: Path, tmp_path: Path, kind: str
) -> None:
    elsewhere = tmp_path / "elsewhere.git"
    (repo / ".git").rename(elsewhere)
    if kind == "gitfile":
        (repo / ".git").write_text(f"gitdir: {elsewhere}\n")
    else:
        (repo / ".git").symlink_to(elsewhere)
    assert rev_parse(repo) is None
    assert repo_state(repo) is None
    with pytest.raises(GitError, match="not a directory"):
        git(repo, "log")


def test_no_git_dir_means_no_repository_even_inside_another(repo: Path) -> None:
    inner = repo / "pkg"
    assert rev_parse(inner) is None  # git would otherwise find repo/.git above it


def test_repo_state_sees_refs_history_files_commits_and_index(repo: Path) -> None:
    before = repo_state(repo)
    assert before is not None
    tree = own_git(repo, "write-tree").decode().strip()
    side = own_git(repo, "commit-tree", tree, "-m", "side", env=BASELINE_IDENTITY).decode().strip()
    own_git(repo, "update-ref", "refs/heads/side", side)
    own_git(repo, "pack-refs", "--all")
    (repo / ".git" / "shallow").write_text(side + "\n")
    own_git(
        repo, "update-index", "--add", "--cacheinfo", f"100644,{write_blob(repo, b'y')},pkg/y.py"
    )
    after = repo_state(repo)
    assert after is not None
    assert after.commits - before.commits == {side}
    assert after.refs["refs/heads/side"] == side  # read from packed-refs
    assert after.history_files["shallow"] is not None and before.history_files["shallow"] is None
    assert "pkg/y.py" in after.index and "pkg/y.py" not in before.index


def test_a_repository_that_borrows_objects_is_read_as_no_repository(
    repo: Path, tmp_path: Path
) -> None:
    """Git follows `objects/info/alternates` to any object store on the machine, so SpecSnap's
    git never reads such a repository; the reconciliation still sees the file."""
    before = repo_state(repo)
    assert before is not None and before.history_files["objects/info/alternates"] is None
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "x.py").write_text("y = 2\n")
    create_baseline(elsewhere, "Elsewhere")
    alternates = repo / ".git" / "objects" / "info" / "alternates"
    alternates.parent.mkdir(exist_ok=True)
    alternates.write_text(f"{elsewhere / '.git' / 'objects'}\n")
    assert rev_parse(repo) is None
    with pytest.raises(GitError):
        export_commit(repo, "HEAD", tmp_path)
    what = [b.what for b in history_rewrites(repo)]  # grading names it a breach
    assert what == ["the repository borrows objects from elsewhere (objects/info/alternates)"]
    after = repo_state(repo)
    assert after is not None and after.history_files["objects/info/alternates"] is not None
