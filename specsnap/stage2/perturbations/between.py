"""Applying Stage II's perturbations between two sessions, and the records they leave.

Between session k and k+1 the sandbox belongs to root: session k's processes are gone and its
records are written. Each kind the run applies is assigned, by the seed, to one of the gaps
(tiers with two sessions have one), and is applied there in the order of
`specsnap.stage2.stage.PERTURBATION_KINDS`, as its entry in `kinds.KINDS` says. What each did,
where, and the values or file contents before and after (git blob ids) go to
RUN_DIR/perturbations/K.json (K = the session it comes before), root's and never the agent's to
read. A perturbation that cannot be made on this
workspace (no note, no uncommitted edit, a conflict with the agent's work) is recorded as not
applied, with the reason.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import TYPE_CHECKING, Any

from specsnap.errors import InfrastructureError
from specsnap.sandbox.gitrepo import GitError
from specsnap.stage2.perturbations.kinds import KINDS
from specsnap.stage2.perturbations.workspace import (
    NotApplicable,
    NothingCarried,
    blob_id,
    read_file,
)
from specsnap.tier.model import Tier

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
        record.update(KINDS[kind].apply(run, tier, index), applied=True)
    except NotApplicable as exc:
        record["what"] = f"not applied: {exc}"
        record["nothing_carried"] = isinstance(exc, NothingCarried)
    except (GitError, OSError) as exc:  # the agent left a repository git cannot work with
        record["what"] = f"not applied: the workspace could not be read or written: {exc}"
    return record


def _settle(run: Run, records: list[Record]) -> None:
    """Note what each reverted file holds once every perturbation of the gap is made (a
    teammate's commit may change it too): the agent's later work is judged against that."""
    for record in records:
        if record["kind"] == "lost-work" and record["applied"]:
            for change in record["changes"]:
                content = read_file(run.sandbox, change["path"])
                change["settled"] = blob_id(content) if content is not None else None
