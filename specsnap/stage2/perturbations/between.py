"""Applying Stage II's perturbations between two sessions, and the records they leave.

Between session k and k+1 the sandbox belongs to root: session k's processes are gone and its
records are written. Each kind the run applies is assigned, by the seed, to one of the gaps
(tiers with two sessions have one), and is applied there in the order of
`specsnap.stage2.stage.PERTURBATION_KINDS`. What each did, where, and the values or file contents
before and after (git blob ids) go to RUN_DIR/perturbations/K.json (K = the session it comes
before), root's and never the agent's to read. A perturbation that cannot be made on this
workspace (no note, no uncommitted edit, a conflict with the agent's work) is recorded as not
applied, with the reason.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from specsnap.errors import InfrastructureError
from specsnap.sandbox.gitrepo import GitError
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
    blob_id,
    commit_as_teammate,
    read_file,
    restore_from_head,
    write_file,
)
from specsnap.tier.draws import values_for
from specsnap.tier.model import Tier
from specsnap.tier.solutions import rendered_patch

if TYPE_CHECKING:
    from specsnap.rundir import Run

RECORDS = "perturbations"
Record = dict[str, Any]


def gap_for(tier: Tier, seed: int, kind: str) -> int:
    """The session before which `kind` is applied (2..sessions), as the seed chooses."""
    return random.Random(f"{tier.id}:{seed}:stage2:{kind}").choice(range(2, tier.sessions + 1))


def perturb_before(run: Run, index: int) -> list[Record]:
    """Apply the perturbations due before session `index`, once; their records."""
    directory = run.run_dir / RECORDS
    directory.mkdir(mode=0o700, exist_ok=True)
    done, started = directory / f"{index}.json", directory / f"{index}.started"
    if done.is_file():
        return list(json.loads(done.read_text()))
    if started.exists():
        raise InfrastructureError(
            f"the perturbations before session {index} of {run.run_dir} were interrupted; "
            "the workspace is in an unknown state: prepare a new run"
        )
    started.touch()
    tier = run.tier
    records = [
        _apply(kind, run, tier, index)
        for kind in run.perturbations
        if gap_for(tier, run.seed, kind) == index
    ]
    _settle(run, records)
    tmp = directory / f"{index}.json.tmp"
    tmp.write_text(json.dumps(records, indent=2, sort_keys=True) + "\n")
    tmp.replace(done)
    started.unlink()
    return records


def perturbation_records(run_dir: Path) -> list[Record]:
    """Every perturbation record of the run, in session order."""
    directory = run_dir / RECORDS
    if not directory.is_dir():
        return []
    files = sorted(directory.glob("*.json"), key=lambda p: int(p.stem))
    return [record for path in files for record in json.loads(path.read_text())]


def incomplete_reasons(run_dir: Path) -> list[str]:
    """Why the perturbations recorded in `run_dir` leave an incomplete Stage II run: one that
    did not land although the workspace carried what it changes (a teammate's commit that does
    not apply, say), and state a stale note could not change (docs/protocol.md, Stage II)."""
    reasons = []
    for record in perturbation_records(run_dir):
        before = f"{record['kind']} before session {record['session']}"
        if not record["applied"] and not record.get("nothing_carried"):
            reasons.append(f"{before} {record.get('what', 'was not applied')}: not a complete "
                           "Stage II run")  # fmt: skip
        if record.get("unchanged"):
            reasons.append(
                f"{before}: the agent carries state the stale note could not change "
                f"({', '.join(record['unchanged'])})"
            )
    return reasons


def _apply(kind: str, run: Run, tier: Tier, index: int) -> Record:
    record: Record = {
        "kind": kind,
        "session": index,
        "applied": False,
        "requirement": None,
        "commit": None,
        "changes": [],
    }
    try:
        record.update(APPLY[kind](run, tier, index), applied=True)
    except NotApplicable as exc:
        record["what"] = f"not applied: {exc}"
        record["nothing_carried"] = isinstance(exc, NothingCarried)
    except (GitError, OSError) as exc:  # the agent left a repository git cannot work with
        record["what"] = f"not applied: the workspace could not be read or written: {exc}"
    return record


def _lost_work(run: Run, tier: Tier, index: int) -> Record:
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


def _settle(run: Run, records: list[Record]) -> None:
    """Note what each reverted file holds once every perturbation of the gap is made (a
    teammate's commit may change it too): the agent's later work is judged against that."""
    for record in records:
        if record["kind"] == "lost-work" and record["applied"]:
            for change in record["changes"]:
                content = read_file(run.sandbox, change["path"])
                change["settled"] = blob_id(content) if content is not None else None


def _teammate(kind: str) -> Callable[[Run, Tier, int], Record]:
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


def _stale_note(run: Run, tier: Tier, index: int) -> Record:
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


APPLY: dict[str, Callable[[Run, Tier, int], Record]] = {
    "lost-work": _lost_work,
    "teammate-refactor": _teammate("teammate-refactor"),
    "planted-regression": _teammate("planted-regression"),
    "stale-note": _stale_note,
}
