"""How the work went, for a whole run: each session's trajectory summary (or why there is none)
and the risky moves from the trajectories and the sandbox's history. Written to RUN_DIR/work.json
(root's, like every record) when the run is graded; signals only, never part of a score."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import asdict
from pathlib import Path
from typing import Any

from specsnap.trajectory.record import FILE
from specsnap.trajectory.risky import git_text, history_moves, shell_moves
from specsnap.trajectory.summary import SessionWork, actions_of, rediscovered, session_work

WORK_FILE = "work.json"
#: A session's HEAD when it ended (written by the run, read here to name each commit's session).
HEAD_FILE = "head"
UNMETERED = "unavailable: the session was not metered (meter=off, or an agent without a model API)"


def work_report(
    run_dir: Path, sandbox: Path, baseline: str, sessions: Sequence[int]
) -> dict[str, Any]:
    """The run's work report: per session, its summary or why none; and the risky moves."""
    per_session: list[dict[str, Any]] = []
    moves = []
    summaries: list[SessionWork] = []
    session_of: dict[str, int] = {}
    previous = baseline
    for index in sessions:
        records = run_dir / "sessions" / str(index)
        head = (records / HEAD_FILE).read_text().strip() if (records / HEAD_FILE).is_file() else ""
        if head and head != previous:
            for commit in _commits(sandbox, previous, head):
                session_of.setdefault(commit, index)
            previous = head
        path = records / FILE
        if not path.is_file():
            per_session.append({"session": index, "trajectory": None, "why": UNMETERED})
            continue
        document = json.loads(path.read_text())
        work = session_work(document)
        entry = {k: v for k, v in asdict(work).items() if k != "files_read"}
        entry["rediscovered"] = sorted(rediscovered(summaries, work))
        summaries.append(work)
        per_session.append({"session": index, "trajectory": entry})
        moves += shell_moves(index, actions_of(document))
    head = _git_head(sandbox)
    if head:
        moves += history_moves(sandbox, baseline, head, session_of)
    return {"sessions": per_session, "risky_moves": [asdict(m) for m in moves]}


def write_work_report(run_dir: Path, sandbox: Path, baseline: str, sessions: Sequence[int]) -> None:
    path = run_dir / WORK_FILE
    path.write_text(json.dumps(work_report(run_dir, sandbox, baseline, sessions), indent=2) + "\n")
    path.chmod(0o600)


def _commits(sandbox: Path, base: str, head: str) -> list[str]:
    return git_text(sandbox, "rev-list", f"{base}..{head}").split()


def _git_head(sandbox: Path) -> str:
    return git_text(sandbox, "rev-parse", "--verify", "-q", "HEAD").strip()
