"""A run on disk, and its state: RUN_DIR/run.json read into the `Run` value every step and every
room below the orchestrator (sessions, Stage II, grading's records) takes; each session's record
read into the `RecordedSession` the steps after it take.

    RUN_DIR/run.json           run state          RUN_DIR/sandbox/   the agent's repository
    RUN_DIR/sessions/N/        records (prompt, output, cutoff.json, session.json)
    RUN_DIR/scorecard.json     RUN_DIR/scorecard.md

run.json is root's (0600): the agent's account may pass through the run directory (0711) to
reach its sandbox and open nothing else in it.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from specsnap import __version__
from specsnap.accounts.pools import RUN_RECORD
from specsnap.errors import InputError, Problem, UsageError
from specsnap.scorecard.codec import DecodeError
from specsnap.scorecard.model import Session
from specsnap.tier.loading import load_tier
from specsnap.tier.model import Tier

RUN_FILE = RUN_RECORD  # the account pool reads it too: a run holds the account it names
SESSION_FILE = "session.json"
#: The seed of a run that names none, in every front end (the command, the Action, the bot).
DEFAULT_SEED = 1


@dataclass(frozen=True)
class RunSpec:
    """What an evaluation is asked to be: the one value every front end (the command, the
    Action) builds and `runs.prepare_run` takes, with the one set of defaults."""

    tier: str  # an id (tier-2), a number (2) or a directory
    seed: int = DEFAULT_SEED
    agent: str = "notetaker"
    agent_options: Mapping[str, str] = field(default_factory=dict)
    pass_env: tuple[str, ...] = ()
    time_limit_s: int | None = None  # another limit than the tier's makes the run unofficial
    budget_tokens: int | None = None  # likewise
    stage: int | None = None  # None: the stage every evaluation runs (specsnap.stage2.stage)
    perturbations: str | tuple[str, ...] | None = None  # Stage II: the kinds applied; None = all
    handoff: str = "fresh"  # how sessions after the cutoff continue (agents.base.HANDOFF_MODES)
    ledger: Path | None = None  # the curriculum ledger that says whether Stage II is unlocked


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


@dataclass(frozen=True)
class RecordedSession:
    """A session as its record states it (RUN_DIR/sessions/N/session.json): what the scorecard
    shows of it, and what Stage II's assessment reads besides."""

    session: Session
    #: Stage II: the tickets the tracker showed or listed to the agent in this session.
    tickets_read: frozenset[str] = frozenset()
    #: Stage II: whether the session changed the sources (a record that does not say counts).
    sources_changed: bool = True


def recorded_session(record: Mapping[str, Any], file: str) -> RecordedSession:
    """The session `record` (the content of `file`) states; InputError names a malformed key."""
    try:
        session = Session.from_record(record)
    except DecodeError as exc:
        raise InputError([Problem(file, exc.path, exc.found, exc.expected)]) from None
    tracker, sources = record.get("tracker"), record.get("sources")
    read = tracker.get("tickets_read", []) if isinstance(tracker, dict) else []
    start = sources.get("at_start") if isinstance(sources, dict) else None
    end = sources.get("at_end") if isinstance(sources, dict) else None
    return RecordedSession(session, frozenset(map(str, read)), start is None or start != end)


def recorded_sessions(run: Run) -> list[RecordedSession]:
    """Every session the run has done, in order, as its record states it."""
    recorded = []
    for index in run.sessions_done:
        path = run.session_dir(index) / SESSION_FILE
        try:
            record = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise InputError([Problem(str(path), "", str(exc), "a session record")]) from None
        if not isinstance(record, dict):
            raise InputError([Problem(str(path), "", type(record).__name__, "a JSON object")])
        recorded.append(recorded_session(record, str(path)))
    return recorded
