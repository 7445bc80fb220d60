"""A teammate's commit on the agent's repository, and a revert of its uncommitted work: real git,
a working tree the agent left dirty, and paths it turned into traps."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from specsnap.sandbox.gitrepo import BASELINE_IDENTITY, git, own_git, rev_parse
from specsnap.stage2.perturbations.workspace import (
    TEAMMATE_EMAIL,
    NotApplicable,
    blob_content,
    blob_id,
    commit_as_teammate,
    head_blobs,
    restore_from_head,
)
from specsnap.tier.draws import values_for
from specsnap.tier.model import Tier
from specsnap.tier.solutions import rendered_patch
from tests.support.repos import starter_repo


def material(tier: Tier, name: str) -> str:
    assert tier.stage2 is not None
    patch = tier.stage2.refactor.patch if name == "refactor" else tier.stage2.regression.patch
    return rendered_patch(patch, values_for(tier, 0))


def status(repo: Path) -> str:
    return own_git(repo, "status", "--porcelain", "--untracked-files=all").decode()


def test_a_teammate_commit_lands_on_head_and_keeps_the_agents_uncommitted_work(
    tier90: Tier, tmp_path: Path
) -> None:
    repo = starter_repo(tier90, tmp_path / "repo")
    head = rev_parse(repo)
    convert = repo / "units" / "convert.py"
    convert.write_text(convert.read_text().replace('"kg": 1000.0}', '"kg": 1000.0, "t": 1e6}'))
    (repo / "NOTES.md").write_text("my notes\n")
    commit = commit_as_teammate(repo, material(tier90, "regression"), "units: whole units")
    assert rev_parse(repo) == commit.id and commit.parent == head
    author = git(repo, "log", "-1", "--format=%ae %s").decode().strip()
    assert author == f"{TEAMMATE_EMAIL} units: whole units"
    merged = convert.read_text()
    assert '"t": 1e6' in merged and "round(value) * factor" in merged  # both changes
    assert status(repo).splitlines() == [" M units/convert.py", "?? NOTES.md"]
    (change,) = commit.changes
    assert change.path == "units/convert.py" and change.after is not None


def test_a_move_carries_the_agents_change_to_the_new_path(tier90: Tier, tmp_path: Path) -> None:
    repo = starter_repo(tier90, tmp_path / "repo")
    lines = repo / "report" / "lines.py"
    lines.write_text(lines.read_text().replace("in grams.", "in grams (rounded)."))
    commit = commit_as_teammate(repo, material(tier90, "refactor"), "report: move")
    assert not lines.exists()
    assert "in grams (rounded)." in (repo / "report" / "formatting.py").read_text()
    paths = {(c.path, c.before is None, c.after is None) for c in commit.changes}
    assert ("report/lines.py", False, True) in paths and (
        "report/formatting.py",
        True,
        False,
    ) in paths
    assert status(repo).splitlines() == [" M report/formatting.py"]


def test_a_conflict_with_uncommitted_work_changes_nothing(tier90: Tier, tmp_path: Path) -> None:
    repo = starter_repo(tier90, tmp_path / "repo")
    head = rev_parse(repo)
    convert = repo / "units" / "convert.py"
    mine = convert.read_text().replace("return value * FACTORS[unit]", "return value * 2")
    convert.write_text(mine)
    with pytest.raises(NotApplicable, match="conflicts with the agent's uncommitted change"):
        commit_as_teammate(repo, material(tier90, "regression"), "units: whole units")
    assert rev_parse(repo) == head and convert.read_text() == mine


def test_a_symlinked_directory_is_never_written_through(tier90: Tier, tmp_path: Path) -> None:
    repo = starter_repo(tier90, tmp_path / "repo")
    outside = tmp_path / "outside"
    outside.mkdir()
    os.rename(repo / "units", outside / "units")
    os.symlink(outside / "units", repo / "units")
    before = (outside / "units" / "convert.py").read_bytes()
    with pytest.raises(NotApplicable):
        commit_as_teammate(repo, material(tier90, "regression"), "units: whole units")
    assert (outside / "units" / "convert.py").read_bytes() == before


def test_reverting_uncommitted_work_restores_head_and_keeps_what_it_added(
    tier90: Tier, tmp_path: Path
) -> None:
    repo = starter_repo(tier90, tmp_path / "repo")
    convert = repo / "units" / "convert.py"
    original = convert.read_bytes()
    convert.write_text(convert.read_text().replace('"kg": 1000.0}', '"kg": 1000.0, "t": 1e6}'))
    (repo / "units" / "extra.py").write_text("EXTRA = 1\n")
    own_git(repo, "add", "units/extra.py")  # staged work is lost too
    lost = restore_from_head(repo, ["units/convert.py", "units/extra.py", "report/lines.py"])
    assert convert.read_bytes() == original and not (repo / "units" / "extra.py").exists()
    assert status(repo) == ""
    by_path = {item.change.path: item for item in lost}
    assert set(by_path) == {"units/convert.py", "units/extra.py"}  # lines.py held nothing
    assert by_path["units/convert.py"].change.after == blob_id(original)
    assert by_path["units/convert.py"].added == ('FACTORS = {"g": 1.0, "kg": 1000.0, "t": 1e6}',)
    assert by_path["units/extra.py"].change.after is None


@pytest.mark.parametrize("where", ["info/attributes", "gitattributes", "attributesFile"])
def test_the_agents_merge_driver_never_runs_and_cannot_keep_its_side(
    tier90: Tier, tmp_path: Path, where: str
) -> None:
    """Trust v3, class 1: the agent committed a change to the file a teammate's commit touches
    (so the commit needs a three-way merge) and configured a merge driver that logs who ran it
    and keeps the agent's side. SpecSnap merges with git's own machinery, in a repository whose
    config is SpecSnap's: the driver never runs, and the teammate's change lands."""
    repo = starter_repo(tier90, tmp_path / "repo")
    convert = repo / "units" / "convert.py"
    convert.write_text(convert.read_text().replace('"kg": 1000.0}', '"kg": 1000.0, "t": 1e6}'))
    log = tmp_path / "driver.log"
    driver = tmp_path / "driver"
    driver.write_text(f"#!/bin/sh\necho $(id -u) >> {log}\nexit 0\n")  # exit 0: %A (ours) kept
    driver.chmod(0o755)
    with (repo / ".git" / "config").open("a") as config:
        config.write(f'[merge "keep"]\n\tdriver = {driver} %O %A %B\n')
    attributes = {
        "info/attributes": repo / ".git" / "info" / "attributes",
        "gitattributes": repo / ".gitattributes",
        "attributesFile": tmp_path / "attributes",
    }[where]
    attributes.parent.mkdir(exist_ok=True)
    attributes.write_text("*.py merge=keep\n")
    if where == "attributesFile":
        own_git(repo, "config", "core.attributesFile", str(attributes))
    own_git(repo, "add", "-A")
    own_git(repo, "commit", "-qm", "agent: tonnes", env=BASELINE_IDENTITY)
    # Plain git as root honours it: the driver runs and the agent's side wins.
    plain = tmp_path / "plain"
    own_git(repo, "worktree", "add", "-q", "--detach", str(plain))
    subprocess.run(
        ["git", "apply", "--3way", "-"],
        cwd=plain,
        input=material(tier90, "regression").encode(),
        capture_output=True,
        check=False,
    )
    assert log.read_text().split() == [str(os.getuid())]
    own_git(repo, "worktree", "remove", "--force", str(plain))
    log.unlink()

    commit = commit_as_teammate(repo, material(tier90, "regression"), "units: whole units")
    assert not log.exists()  # SpecSnap never ran it
    landed = blob_content(repo, head_blobs(repo, commit.id)["units/convert.py"][1]).decode()
    assert '"t": 1e6' in landed and "round(value) * factor" in landed  # both sides merged
