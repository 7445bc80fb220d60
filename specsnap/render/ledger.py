"""The curriculum ledger in the terminal: an entry in one line, the ledger's status (pure)."""

from __future__ import annotations

from typing import Any

from specsnap.ledger.chain import Ledger, stage_for, unlocking_entry
from specsnap.ledger.entry import Entry
from specsnap.render.markup import plain
from specsnap.render.summary import stage_name
from specsnap.render.words import KEPT, percent, tes_text, verdict
from specsnap.scorecard.aggregate import agent_label
from specsnap.scorecard.codec import to_json


def entry_line(entry: Entry, *, mark_unlock: bool = True) -> str:
    c = entry.candidate
    unlock = " · unlocked Stage II" if entry.unlocks_stage_2 and mark_unlock else ""
    attested = "attested" if entry.attested else "not attested"
    kept = c.retained_without_recovery
    kept_text = "" if kept is None else f"{KEPT} {percent(kept)}, "
    return (
        f"entry #{entry.index}: {plain(c.tier_id)}, seed {c.seed}, "
        f"{plain(agent_label(c.agent, c.agent_options))}, Stage {stage_name(c.stage)}: "
        f"{verdict(c.passed)}, {kept_text}net {percent(c.net_retention)}, TES {tes_text(c.tes)}, "
        f"{attested}, scorecard {c.scorecard_sha256[:16]}{unlock}"
    )


def status_text(name: str, ledger: Ledger) -> str:
    """How many entries, the head, and whether Stage II is unlocked (by which entry)."""
    unlocker = unlocking_entry(ledger.entries)
    lines = [f"{plain(name)}: {len(ledger.entries)} entries, head {ledger.head}"]
    if unlocker is None:
        lines.append("Stage II: locked (no verified scorecard has PASS and TES ≥ 75% yet)")
    else:
        lines.append(f"Stage II: unlocked by {entry_line(unlocker, mark_unlock=False)}")
        lines.append(f"  recorded {unlocker.recorded_at}")
    lines.append(f"every evaluation runs: Stage {stage_name(stage_for(ledger.entries))}")
    return "\n".join(lines)


def status_json(ledger: Ledger) -> dict[str, Any]:
    unlocker = unlocking_entry(ledger.entries)
    return {
        "entries": len(ledger.entries),
        "head": ledger.head,
        "stage_required": stage_for(ledger.entries),
        "unlocked_by": None if unlocker is None else to_json(unlocker),
    }
