"""`--handoff resume`: root copies the cut-off session's declared store into the next HOME, so a
store the agent shaped must never carry in what its account could not read.

The agent here is a script standing in for Claude Code's executable (`--agent-opt bin=`),
through `specsnap run --agent claude-code --handoff resume`: in session 1 it replaces its
`~/.claude` by a link to a root-only directory laid out as a Claude Code store (a session file
whose content is a secret), then makes its first edit, which cuts the session off. Session 2's
HOME must hold nothing of that directory, and the record says why nothing moved. An honest store
(the same layout, in a real `~/.claude`) is carried and its session resumed.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import FIXTURE_TIERS

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(os.geteuid() != 0, reason="an account that cannot read root's files"),
]

SESSION = "0123abcd-0000-4000-8000-00000000beef"
SECRET = "root's secret: hidden tests live here"

#: Session 1: shape the store (`link` or an honest one), then edit a source file (the cutoff).
#: Session 2 (`--resume ID` in argv): say what it found in its HOME, in the sandbox's notes.
AGENT = """#!/bin/sh
case " $* " in
  *" --resume "*)
    found=$(cat "$HOME"/.claude/projects/*/*.jsonl 2>/dev/null | head -c 200)
    printf '%s\\n' "resumed with: ${found:-nothing}" > NOTES.md
    git add NOTES.md && git commit -qm notes
    exit 0 ;;
esac
if [ "$SHAPE" = link ]; then
  ln -s "$TARGET" "$HOME/.claude"
else
  mkdir -p "$HOME/.claude/projects/-sandbox"
  printf '{"type":"user"}\\n' > "$HOME/.claude/projects/-sandbox/SESSION.jsonl"
fi
printf '\\n# edited\\n' >> units/convert.py
sleep 30
""".replace("SESSION", SESSION)


def run_resumed(tmp_path: Path, shape: str) -> tuple[Path, dict[str, object]]:
    target = tmp_path / "root-only"
    (target / "projects" / "-sandbox").mkdir(parents=True)
    (target / "projects" / "-sandbox" / f"{SESSION}.jsonl").write_text(SECRET + "\n")
    target.chmod(0o700)  # root's: the agent's account may link to it, never read it
    agent = tmp_path / "fake-claude"
    agent.write_text(AGENT)
    agent.chmod(0o755)
    out = tmp_path / "run"
    env = dict(
        os.environ,
        SPECSNAP_TIERS_DIR=str(FIXTURE_TIERS),
        SHAPE=shape,
        TARGET=str(target),
    )
    proc = subprocess.run(
        [sys.executable, "-m", "specsnap", "run", "--tier", "90", "--agent", "claude-code",
         "--handoff", "resume", "--agent-opt", f"bin={agent}", "--agent-opt", "meter=off",
         "--pass-env", "SHAPE", "--pass-env", "TARGET", "--out", str(out)],
        env=env, text=True, capture_output=True, timeout=600,
    )  # fmt: skip
    assert proc.returncode in (0, 1), proc.stderr
    record = json.loads((out / "sessions" / "2" / "session.json").read_text())
    return out, record


def test_a_store_linked_to_a_root_only_directory_carries_nothing_in(tmp_path: Path) -> None:
    out, record = run_resumed(tmp_path, "link")
    handoff = record["handoff"]
    assert handoff["state_files"] == 0 and handoff["session_id"] is None
    assert handoff["skipped"] == [".claude/projects: .claude is not a directory (not followed)"]
    home = out / "sessions" / "2" / "home"
    assert not any(SECRET in p.read_text(errors="replace") for p in home.rglob("*") if p.is_file())
    card = json.loads((out / "scorecard.json").read_text())
    assert card["gate"]["protocol_breaches"] == []


def test_an_honest_store_is_carried_and_resumed(tmp_path: Path) -> None:
    _, record = run_resumed(tmp_path, "honest")
    handoff = record["handoff"]
    assert (handoff["state_files"], handoff["session_id"]) == (1, SESSION)
    assert handoff["skipped"] == [] and handoff["error"] is None
