"""A run on disk, and its state: RUN_DIR/run.json read into the `Run` value every step and every
room below the orchestrator (sessions, Stage II, grading's records) takes.

    RUN_DIR/run.json           run state          RUN_DIR/sandbox/   the agent's repository
    RUN_DIR/sessions/N/        records (prompt, output, cutoff.json, session.json)
    RUN_DIR/scorecard.json     RUN_DIR/scorecard.md

run.json is root's (0600): the agent's account may pass through the run directory (0711) to
reach its sandbox and open nothing else in it.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, field
from pathlib import Path

from specsnap import __version__
from specsnap.errors import UsageError
from specsnap.tier.loading import load_tier
from specsnap.tier.model import Tier

RUN_FILE = "run.json"


@dataclass(frozen=True)
class Run:
    """The state of one run, as stored in run.json."""

    run_dir: Path
    tier_dir: str
    tier_id: str
    tier_sha256: str
    seed: int
    agent: str
    agent_options: dict[str, str] = field(default_factory=dict)
    pass_env: list[str] = field(default_factory=list)
    time_limit_s: int | None = None
    budget_tokens: int | None = None
    baseline_commit: str = ""
    sessions_done: list[int] = field(default_factory=list)
    specsnap_version: str = __version__
    agent_account: str = ""  # the pool account its sessions run as; "" = SpecSnap's own user
    stage: int = 1
    perturbations: list[str] = field(default_factory=list)  # Stage II: the kinds it applies
    stage2_unlocked: bool = False  # whether Stage II was unlocked when the run was prepared
    handoff: str = "fresh"  # how sessions after the cutoff continue (agents.base.HANDOFF_MODES)

    @property
    def sandbox(self) -> Path:
        return self.run_dir / "sandbox"

    @property
    def tier(self) -> Tier:
        return load_tier(self.tier_dir)

    def session_dir(self, index: int) -> Path:
        return self.run_dir / "sessions" / str(index)

    def save(self) -> None:
        data = asdict(self)
        data["run_dir"] = None
        tmp = self.run_dir / (RUN_FILE + ".tmp")
        tmp.unlink(missing_ok=True)
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)  # never the agent's to read
        with os.fdopen(fd, "w") as handle:
            handle.write(json.dumps(data, indent=2, sort_keys=True) + "\n")
        os.replace(tmp, self.run_dir / RUN_FILE)


def load_run(run_dir: Path) -> Run:
    """The run stored in `run_dir`; a clear error when there is none."""
    path = run_dir / RUN_FILE
    if not path.is_file():
        raise UsageError(f"{run_dir} is not a prepared run (no {RUN_FILE}); run `specsnap prepare`")
    data = json.loads(path.read_text())
    data["run_dir"] = run_dir.resolve()
    return Run(**data)
