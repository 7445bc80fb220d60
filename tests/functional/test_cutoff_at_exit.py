"""An agent whose first source edit is its last act: it edits and exits at once, before the
cutoff watcher has looked. The watcher's last comparison, once the agent is gone, fires the
cutoff (docs/protocol.md, "Cutoff"), and the session is recorded as cut off, whatever the
scheduling: never "completed" beside a cutoff that fired. An honest control that leaves only a
Markdown note completes its session, the cutoff not fired."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import FIXTURE_TIERS
from tests.functional.cli import specsnap

pytestmark = pytest.mark.slow

# Session 1 does one thing and exits; session 2 ("Continue …") does nothing.
AGENT = """
import pathlib, sys
if pathlib.Path(sys.argv[1]).read_text().startswith("Continue"):
    raise SystemExit(0)
{act}
"""

ACTS = {
    # Code removed: a proper prefix of the snapshot is judged only once a poll interval has
    # passed, or at the session's end; an agent that exits at once is gone before that.
    "truncates": "p = pathlib.Path('units/convert.py'); p.write_bytes(p.read_bytes()[:40])",
    # tests/fixtures/agent-repo's tinyagent: a new module written, then straight out.
    "creates": "pathlib.Path('notes_kept.py').write_text('NOTES = []\\n')",
}


def session_one(tmp_path: Path, act: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """Session 1's record and cutoff.json, from a whole `specsnap run` of the agent."""
    script = tmp_path / "agent.py"
    script.write_text(AGENT.format(act=act))
    script.chmod(0o644)
    out = tmp_path / "run"
    proc = specsnap(
        "run", "--tier", "90", "--agent", "command",
        "--agent-opt", f"cmd=python3 {script} {{prompt_file}}", "--out", str(out),
        tiers=FIXTURE_TIERS,
    )  # fmt: skip
    assert proc.returncode in (0, 1), proc.stderr
    card = json.loads((out / "scorecard.json").read_text())
    cutoff = json.loads((out / "sessions" / "1" / "cutoff.json").read_text())
    return card["sessions"][0], cutoff


@pytest.mark.parametrize("act", sorted(ACTS))
def test_an_edit_made_as_the_agent_exits_cuts_the_session_off(tmp_path: Path, act: str) -> None:
    session, cutoff = session_one(tmp_path, ACTS[act])
    assert cutoff["fired"] and cutoff["reason"] == "source-edit", cutoff
    assert session["exit"]["status"] == "cutoff", (session["exit"], cutoff["detected_by"])
    if act == "truncates":
        # Usually only the last comparison sees it in time; on a loaded machine the agent may
        # still be exiting when a poll interval has passed, and the poll sees it: either way the
        # session is cut off at that file.
        assert cutoff["file"] == "units/convert.py", cutoff
        assert cutoff["detected_by"] in ("session-end", "poll"), cutoff


def test_an_agent_that_leaves_only_a_note_completes_its_session(tmp_path: Path) -> None:
    session, cutoff = session_one(tmp_path, "pathlib.Path('NOTES.md').write_text('later\\n')")
    assert not cutoff["fired"], cutoff
    assert session["exit"] == {"status": "completed", "code": 0, "signal": None}
