"""`specsnap run` tells each session's story in the terminal and in scorecard.md, the same way."""

from __future__ import annotations

import re
from pathlib import Path

from tests.conftest import FIXTURE_TIERS
from tests.functional.cli import specsnap

COMMIT_ONCE = "[ -f .tried ] || { touch .tried; git commit -q --allow-empty -m try; }"
STORY = re.compile(r"cutoff fired after \d+\.\d s on a commit attempt \(refused by the hook\)")


def test_a_commit_attempt_cutoff_names_its_reason_not_a_file(tmp_path: Path) -> None:
    out = tmp_path / "run"
    proc = specsnap(
        "run",
        "--tier",
        "90",
        "--agent",
        "command",
        "--agent-opt",
        f"cmd={COMMIT_ONCE}",
        "--out",
        str(out),
        tiers=FIXTURE_TIERS,
    )
    assert proc.returncode == 1, proc.stderr
    live = next(line for line in proc.stderr.splitlines() if line.startswith("session 1:"))
    assert live.startswith("session 1: cut off after ") and STORY.search(live), live
    summary = next(line for line in proc.stdout.splitlines() if "session 1:" in line)
    assert STORY.search(summary), summary
    markdown = (out / "scorecard.md").read_text()
    assert re.search(r"\| 1 \| cut off \| fired after \d+\.\d s on a commit attempt", markdown)
    for shown in (proc.stdout, proc.stderr, markdown):
        assert "None" not in shown
