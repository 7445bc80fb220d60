"""Receipts: SpecSnap's Merkle digest against an independent implementation of docs/protocol.md"""

from __future__ import annotations

import hashlib
import os
import subprocess
from pathlib import Path

from specsnap.sandbox.gitrepo import export_commit
from specsnap.scorecard.receipt import canonical_json, merkle_digest, scorecard_digest, seal


def independent_digest(root: Path) -> str:
    """The receipt rules of docs/protocol.md written again: bottom-up, walking paths."""

    def node(path: Path) -> bytes:
        if path.is_symlink():
            target = os.readlink(path).encode()
            return hashlib.sha256(b"file\x00120000\x00" + hashlib.sha256(target).digest()).digest()
        if path.is_dir():
            names = sorted(n.encode() for n in os.listdir(path) if n != ".git")
            body = b"".join(name + b"\x00" + node(path / name.decode()) for name in names)
            return hashlib.sha256(b"tree\x00" + body).digest()
        mode = b"100755" if os.stat(path).st_mode & 0o100 else b"100644"
        content = hashlib.sha256(path.read_bytes()).digest()
        return hashlib.sha256(b"file\x00" + mode + b"\x00" + content).digest()

    return node(root).hex()


def make_tree(root: Path) -> None:
    (root / "pkg" / "sub").mkdir(parents=True)
    (root / "pkg" / "a.py").write_text("x = 1\n")
    (root / "pkg" / "sub" / "ü.txt").write_text("unicode name\n")
    (root / "run.sh").write_text("#!/bin/sh\n")
    (root / "run.sh").chmod(0o755)
    (root / "link").symlink_to("pkg/a.py")
    (root / "B").write_text("capital sorts before lower case\n")
    (root / ".git").mkdir()
    (root / ".git" / "ignored").write_text("never digested")


def test_merkle_digest_matches_an_independent_implementation(tmp_path: Path) -> None:
    make_tree(tmp_path)
    assert merkle_digest(tmp_path) == independent_digest(tmp_path)


def test_digest_changes_with_content_mode_and_link_target(tmp_path: Path) -> None:
    make_tree(tmp_path)
    before = merkle_digest(tmp_path)
    (tmp_path / "run.sh").chmod(0o644)
    after_mode = merkle_digest(tmp_path)
    (tmp_path / "link").unlink()
    (tmp_path / "link").symlink_to("run.sh")
    after_link = merkle_digest(tmp_path)
    assert len({before, after_mode, after_link}) == 3
    (tmp_path / ".git" / "ignored").write_text("changed")
    assert merkle_digest(tmp_path) == after_link


def test_digest_of_an_exported_commit_equals_the_digest_of_its_checkout(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    make_tree(repo)
    (repo / ".git" / "ignored").unlink()
    (repo / ".git").rmdir()
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "a",
        "GIT_AUTHOR_EMAIL": "a@a",
        "GIT_COMMITTER_NAME": "a",
        "GIT_COMMITTER_EMAIL": "a@a",
    }
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "x"]):
        subprocess.run(["git", *args], cwd=repo, env=env, check=True)
    export = tmp_path / "export"
    export.mkdir()
    export_commit(repo, "HEAD", export)
    assert merkle_digest(export) == independent_digest(repo)


def test_canonical_json_is_sorted_compact_utf8() -> None:
    assert canonical_json({"b": 1, "a": ["é", 0.5]}) == '{"a":["é",0.5],"b":1}'.encode()


def test_scorecard_digest_ignores_only_its_own_field() -> None:
    card = {"scores": {"raw": 1.0}, "receipt": {"seed": 3}}
    sealed = seal(card)
    assert sealed["receipt"]["scorecard_sha256"] == scorecard_digest(card)
    assert scorecard_digest(sealed) == scorecard_digest(card)
    tampered = {**sealed, "scores": {"raw": 0.9}}
    assert scorecard_digest(tampered) != sealed["receipt"]["scorecard_sha256"]
