"""How each kind of perturbation changes the workspace between two sessions (the loop that
applies them, and their records: `between`). Each returns what its record says of it, or raises
NotApplicable (NothingCarried where the agent left nothing for it to change)."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from specsnap.stage2.perturbations.notes import (
    added_code,
    agent_notes,
    as_text,
    choose_stale,
    history_stating,
    replace_value,
    stale_candidates,
)
from specsnap.stage2.perturbations.workspace import (
    NotApplicable,
    NothingCarried,
    commit_as_teammate,
    restore_from_head,
    write_file,
)
from specsnap.tier.draws import values_for
from specsnap.tier.model import Tier
from specsnap.tier.solutions import rendered_patch

if TYPE_CHECKING:
    from specsnap.rundir import Run

Record = dict[str, Any]
Applier = Callable[["Run", Tier, int], Record]


def lost_work(run: Run, tier: Tier, index: int) -> Record:
    cutoff = json.loads((run.session_dir(index - 1) / "cutoff.json").read_text())
    if cutoff.get("reason") != "source-edit" or not cutoff.get("file"):
        raise NotApplicable(f"session {index - 1} was not cut off in a source edit")
    paths = list(dict.fromkeys([cutoff["file"], *cutoff.get("written_between", [])]))
    lost = restore_from_head(run.sandbox, paths)
    if not lost:
        raise NothingCarried("the edit the cutoff caught holds nothing uncommitted any more")
    listed = ", ".join(item.change.path for item in lost)
    return {
        "what": f"the uncommitted edit the cutoff caught was reverted to HEAD: {listed}",
        "changes": [{**vars(item.change), "lost_lines": list(item.added)} for item in lost],
    }


def teammate(kind: str) -> Callable[[Run, Tier, int], Record]:
    def apply(run: Run, tier: Tier, index: int) -> Record:
        if tier.stage2 is None:
            raise NotApplicable(f"{tier.id} has no Stage II material")
        material = tier.stage2.refactor if kind == "teammate-refactor" else tier.stage2.regression
        patch = rendered_patch(material.patch, values_for(tier, run.seed))
        commit = commit_as_teammate(run.sandbox, patch, material.message)
        return {
            "what": f"a teammate committed {commit.id[:12]}: {material.message}",
            "commit": commit.id,
            "parent": commit.parent,
            "changes": [vars(c) for c in commit.changes],
        }

    return apply


def stale_note(run: Run, tier: Tier, index: int) -> Record:
    notes, too_large = agent_notes(run.sandbox, run.baseline_commit)
    if not notes and not too_large:
        raise NothingCarried("the agent wrote no note")
    code = added_code(run.sandbox, run.baseline_commit)
    texts = {path: as_text(data) for path, data in notes.items()}
    candidates = stale_candidates(tier, values_for(tier, run.seed), texts, code)
    if not candidates:
        if too_large:
            raise NotApplicable(f"notes too large to read: {', '.join(too_large)}")
        raise NothingCarried("no note states a drawn value that the agent's code lacks")
    rng = random.Random(f"{tier.id}:{run.seed}:stage2:stale-note:{index}")
    chosen, wrong = choose_stale(candidates, rng)
    changes = []
    for path, text in texts.items():
        new, count = replace_value(text, chosen.value, wrong)
        if count:
            executable = bool((run.sandbox / path).stat().st_mode & 0o100)
            write_file(run.sandbox, path, new.encode("latin-1"), executable, inside_git=True)
            changes.append({"path": path, "before": chosen.value, "after": wrong, "count": count})
    unchanged = too_large + history_stating(run.sandbox, run.baseline_commit, chosen.value)
    return {
        "what": (
            f"the agent's notes now say {wrong} where they said {chosen.value} "
            f"({chosen.param} of {chosen.requirement})"
        ),
        "requirement": chosen.requirement,
        "param": chosen.param,
        "changes": changes,
        "unchanged": unchanged,
    }
