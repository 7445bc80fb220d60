"""The badge on a branch: published to a real (local, bare) git repository, read back as
shields.io reads an endpoint document."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from specsnap.publish.branch import publish_files


def show(remote: Path, ref: str) -> str:
    return subprocess.run(
        ["git", "--git-dir", str(remote), "show", ref], capture_output=True, text=True, check=True
    ).stdout


def test_the_badge_lands_on_its_own_branch_once_per_change(tmp_path: Path) -> None:
    remote = tmp_path / "agent.git"
    subprocess.run(["git", "init", "--quiet", "--bare", str(remote)], check=True)
    endpoint = {"schemaVersion": 1, "label": "SpecSnap", "message": "net 87.5%", "color": "green"}
    files = {"specsnap-badge.json": json.dumps(endpoint).encode(), "specsnap-badge.svg": b"<svg/>"}
    first = publish_files(files, str(remote), "specsnap-badge", "Badge")
    again = publish_files(files, str(remote), "specsnap-badge", "Badge")
    assert again == first  # nothing changed: no new commit
    changed = publish_files({**files, "specsnap-badge.svg": b"<svg>2</svg>"}, str(remote),
                            "specsnap-badge", "Badge")  # fmt: skip
    assert changed != first and show(remote, f"{changed}^") == show(remote, first)
    read = json.loads(show(remote, "specsnap-badge:specsnap-badge.json"))
    # What shields.io's endpoint badge requires of the document.
    assert read["schemaVersion"] == 1 and isinstance(read["message"], str) and read["label"]
    listing = ["git", "--git-dir", str(remote), "ls-tree", "--name-only", "specsnap-badge"]
    tree = subprocess.run(listing, capture_output=True, text=True, check=True)
    assert tree.stdout.split() == ["specsnap-badge.json", "specsnap-badge.svg"]
