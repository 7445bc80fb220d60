"""Each risky-move rule fires on the bad form and stays silent on an honest look-alike, on a
real git history (and on shell actions for the commands)."""

from __future__ import annotations

from pathlib import Path

import pytest

from specsnap.trajectory.risky import commit_moves, history_moves, shell_moves
from specsnap.trajectory.summary import Action
from tests.support.histories import commit, git

MODULE = "".join(f"def f{n}(x):\n    return x + {n}\n\n" for n in range(10))
TEST = (
    "import pytest\n\n\ndef test_a():\n    assert 1\n    assert 2\n\n\n"
    "def test_b():\n    assert 3\n"
)


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    git(tmp_path, "init", "-q")
    commit(
        tmp_path,
        {
            "pkg/mod.py": MODULE,
            "tests/test_mod.py": TEST,
            "pyproject.toml": "[project]\ndependencies = [\n]\n",
        },
    )
    return tmp_path


def kinds(repo: Path, sha: str) -> set[tuple[str, str]]:
    return {(m.kind, m.target) for m in commit_moves(repo, sha, 2)}


def test_a_deleted_test_is_named_a_renamed_one_is_not(repo: Path) -> None:
    renamed = commit(repo, {"tests/test_mod.py": None, "tests/test_module.py": TEST})
    assert kinds(repo, renamed) == set()
    deleted = commit(repo, {"tests/test_module.py": None})
    assert kinds(repo, deleted) == {("test-deleted", "tests/test_module.py")}


def test_assertions_removed_and_skip_added_but_not_a_comment_mentioning_skip(repo: Path) -> None:
    comment = commit(repo, {"tests/test_mod.py": TEST + "# pytest.skip( is not used here\n"})
    assert kinds(repo, comment) == set()
    weakened = TEST.replace("    assert 2\n", "").replace(
        "def test_b", "@pytest.mark.skip(reason='later')\ndef test_b"
    )
    sha = commit(repo, {"tests/test_mod.py": weakened})
    assert kinds(repo, sha) == {
        ("assertions-removed", "tests/test_mod.py"),
        ("skip-added", "tests/test_mod.py"),
    }


def test_a_whole_module_rewritten_is_broad_a_one_line_change_is_not(repo: Path) -> None:
    small = commit(repo, {"pkg/mod.py": MODULE.replace("x + 3", "x + 33")})
    assert kinds(repo, small) == set()
    rewritten = "".join(f"def g{n}(y):\n    return y * {n}\n\n" for n in range(10))
    sha = commit(repo, {"pkg/mod.py": rewritten})
    assert kinds(repo, sha) == {("broad-rewrite", "pkg/mod.py")}


def test_a_dependency_added_is_named_a_comment_is_not(repo: Path) -> None:
    comment = commit(repo, {"pyproject.toml": "# a note\n[project]\ndependencies = [\n]\n"})
    assert kinds(repo, comment) == set()
    sha = commit(repo, {"pyproject.toml": '[project]\ndependencies = [\n  "requests",\n]\n'})
    assert kinds(repo, sha) == {("dependency-added", "pyproject.toml")}


def test_history_moves_name_the_session_of_each_commit(repo: Path) -> None:
    base = git(repo, "rev-parse", "HEAD")
    sha = commit(repo, {"tests/test_mod.py": None})
    (move,) = history_moves(repo, base, sha, {sha: 1})
    assert (move.session, move.where, move.kind) == (1, sha[:12], "test-deleted")


@pytest.mark.parametrize(
    ("command", "kind"),
    [
        ("git reset --hard HEAD~1", "git-reset-hard"),
        ("git checkout -- .", "git-checkout-discard"),
        ("git clean -fd", "git-clean"),
        ("git push --force origin main", "force-push"),
        ("git commit --no-verify -m x", "no-verify"),
        ("rm -rf tests ", "rm-rf"),
    ],
)
def test_each_risky_command_is_named(command: str, kind: str) -> None:
    (move,) = shell_moves(3, [Action(7, "shell", command, None)])
    assert (move.session, move.where, move.kind) == (3, "step 7", kind)


@pytest.mark.parametrize(
    "command",
    ["git reset HEAD file.py", "git checkout -b topic", "git clean -n", "git push origin main",
     "echo 'do not use --no-verify'", "rm -r build/tmp.txt", "grep 'reset --hard' notes.md"],
)  # fmt: skip
def test_honest_look_alikes_are_not_named(command: str) -> None:
    assert shell_moves(1, [Action(1, "shell", command, None)]) == []
