"""How the work went, for a whole run: each session's trajectory summary (or why there is none),
the risky moves from the trajectories and the sandbox's history, and (given the tier) the agent's
own tests and the diff's maintainability (specsnap.quality). Written to RUN_DIR/work.json (root's,
like every record) when the run is graded; signals only, never part of a score."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import asdict
from pathlib import Path
from typing import Any

from specsnap.quality.report import quality_report
from specsnap.tier.model import Tier
from specsnap.trajectory.record import FILE
from specsnap.trajectory.risky import git_text, history_moves, shell_moves
from specsnap.trajectory.summary import SessionWork, actions_of, rediscovered, session_work

WORK_FILE = "work.json"
#: A session's HEAD when it ended (written by the run, read here to name each commit's session).
HEAD_FILE = "head"
UNMETERED = "unavailable: the session was not metered (meter=off, or an agent without a model API)"


def work_report(
    run_dir: Path,
    sandbox: Path,
    baseline: str,
    sessions: Sequence[int],
    tier: Tier | None = None,
    values: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """The run's work report: per session, its summary or why none; the risky moves; and, given
    the tier and the seed's values, the agent's tests and the maintainability signals."""
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
    report = {"sessions": per_session, "risky_moves": [asdict(m) for m in moves]}
    if tier is not None and head:
        reached = max(sessions, default=0)
        report.update(quality_report(tier, sandbox, baseline, values or {}, reached))
    return report


def write_work_report(
    run_dir: Path,
    sandbox: Path,
    baseline: str,
    sessions: Sequence[int],
    tier: Tier | None = None,
    values: Mapping[str, Any] | None = None,
) -> None:
    path = run_dir / WORK_FILE
    report = work_report(run_dir, sandbox, baseline, sessions, tier, values)
    path.write_text(json.dumps(report, indent=2) + "\n")
    path.chmod(0o600)


def _commits(sandbox: Path, base: str, head: str) -> list[str]:
    return git_text(sandbox, "rev-list", f"{base}..{head}").split()


def _git_head(sandbox: Path) -> str:
    return git_text(sandbox, "rev-parse", "--verify", "-q", "HEAD").strip()
