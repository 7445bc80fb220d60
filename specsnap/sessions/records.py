"""What a session leaves in RUN_DIR/sessions/N/: session.json (the record the scorecard is built
from) and cutoff.json (every detail of the cutoff, timings included)."""

from __future__ import annotations

import hashlib
import json
import signal
from pathlib import Path
from typing import TYPE_CHECKING, Any

from specsnap.rundir import SESSION_FILE
from specsnap.scorecard.model import Tokens

if TYPE_CHECKING:
    from specsnap.sessions.supervisor import Supervisor


def exit_info(code: int, reason: str | None, timed_out: bool) -> dict[str, Any]:
    """How the session ended. When SpecSnap ended it (cutoff, time limit), the agent's exit
    code only tells which of SpecSnap's signals landed first, so it is not recorded."""
    if reason is not None or timed_out:
        return {"status": "cutoff" if reason else "timeout", "code": None, "signal": None}
    signal_name = signal.Signals(-code).name if code < 0 else None
    status = "completed" if code == 0 else "crashed"
    return {"status": status, "code": code, "signal": signal_name}


def session_record(
    sup: Supervisor,
    prompt: str,
    exit: dict[str, Any],
    usage: Tokens,
    duration: float,
    notes: list[str],
) -> dict[str, Any]:
    """The session's record (session.json)."""
    firing = sup.watcher.firing if sup.reason == "source-edit" else None
    return {
        "index": sup.index,
        "agent": sup.run.agent,
        "prompt_sha256": hashlib.sha256(prompt.encode()).hexdigest(),
        "cutoff": {
            "armed": sup.watcher.armed,
            "fired": sup.reason is not None,
            "reason": sup.reason,
            "file": firing.file if firing else None,
            "change": firing.change if firing else None,
            "latency_ms": firing.latency_ms if firing else None,
            "after_s": (round((sup.fired_ns - sup.started_ns) / 1e9, 3) if sup.fired_ns else None),
        },
        "tokens": usage.as_dict(),
        "exit": exit,
        "breaches": sup.breaches,
        "notes": notes,
        "duration_s": round(duration, 3),
    }


def write_records(records: Path, record: dict[str, Any], sup: Supervisor) -> None:
    """Write session.json and cutoff.json."""
    firing = sup.watcher.firing if sup.reason == "source-edit" else None
    cut = sup.watcher.cut  # what was cut away varies with timing: here, never in the scorecard
    armed_at = sup.watcher.armed_at_ns
    cutoff: dict[str, Any] = {
        "armed": sup.watcher.armed,
        "armed_after_ms": round((armed_at - sup.started_ns) / 1e6, 3) if armed_at else None,
        "fired": sup.reason is not None,
        "reason": sup.reason,
        "product_note_delivered": sup.note_delivered if sup.arm_on_commit else None,
        "baseline_checks": sup.baseline_verdicts if sup.arm_on_commit else None,
        "hard_links_at_arm": sup.watcher.linked_at_arm,
        "watcher_realtime": sup.watcher.realtime,
    }
    if firing is not None:
        cutoff.update(
            file=firing.file,
            change=firing.change,
            sha256_before=firing.sha256_before,
            sha256_after=firing.sha256_after,
            write_mtime_ns=firing.mtime_ns,
            detected_by=firing.detected_by,
            detected_monotonic_ns=firing.detected_ns,
            frozen_monotonic_ns=firing.frozen_ns,
            frozen_wall_ns=firing.frozen_wall_ns,
            latency_ms=firing.latency_ms,
            write_to_freeze_ms=(
                round((firing.frozen_wall_ns - firing.mtime_ns) / 1e6, 3)
                if firing.mtime_ns
                else None
            ),
        )
    if cut is not None:
        cutoff.update(
            kept=cut.trigger,
            cut_away=cut.cut_away,
            not_restored=cut.not_restored,
            written_after=cut.written_after,
        )
    (records / "cutoff.json").write_text(json.dumps(cutoff, indent=2) + "\n")
    (records / SESSION_FILE).write_text(json.dumps(record, indent=2, sort_keys=True) + "\n")
