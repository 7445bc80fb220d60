"""The frozen tier model: a tier's requirements, amendments, Stage II material and settings, as
tier/loading.py builds them from tier.yaml."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from specsnap.errors import UsageError
from specsnap.tier.params import Param
from specsnap.tier.wiring import Wiring


@dataclass(frozen=True)
class Requirement:
    id: str
    title: str
    package: str
    text: str
    tests: tuple[str, ...]
    depends_on: tuple[str, ...]
    params: tuple[Param, ...] = ()


@dataclass(frozen=True)
class Contradiction:
    """A hidden check written with an amendment: how the rule it replaces reads (`pattern`, a
    regular expression whose `${param}` placeholders take the seed's values, escaped) and where
    it would be stated (`where`, repository-relative globs; .py files are read for their
    comments and docstrings only). A sentence that also matches `unless` revises the old rule
    ("no longer", "was") rather than stating it. `says` names the old rule on the card."""

    says: str
    pattern: str
    where: tuple[str, ...]
    unless: str | None = None


@dataclass(frozen=True)
class Amendment:
    session: int
    amends: tuple[str, ...]
    text: str
    #: Hidden: never shown to the agent; read at grading (specsnap.quality.continuity).
    contradicted: tuple[Contradiction, ...] = ()


@dataclass(frozen=True)
class Regression:
    """Stage II's planted regression: a teammate's commit that breaks baseline behaviour (the
    visible tests in `catches` fail), its fix at the cause, and a fix that only special-cases
    the failing input. `hidden_tests` tell the two fixes apart; in Stage II they join the
    baseline of the regression gate. The same commit also makes a wanted change that the
    hidden tests in `keeps` check: reverting the commit loses it, the fix at the cause keeps
    it; they join the gate of a run the regression was planted in."""

    patch: Path
    message: str
    root_cause: Path
    special_case: Path
    hidden_tests: tuple[str, ...]
    catches: tuple[str, ...]
    keeps: tuple[str, ...]


@dataclass(frozen=True)
class Refactor:
    """Stage II's teammate refactor: a commit that moves files the sprint touches (`moves`:
    old path -> new path, as git detects the renames), keeping public behaviour."""

    patch: Path
    message: str
    moves: Mapping[str, str]


@dataclass(frozen=True)
class Stage2Material:
    regression: Regression
    refactor: Refactor


@dataclass(frozen=True)
class Tier:
    """A validated tier. Paths are absolute; nothing here is read again after loading."""

    id: str
    name: str
    summary: str
    root: Path
    sessions: int
    python_path: tuple[str, ...]
    starter: Path
    grader: Path
    solution: Path
    session1_prompt: str
    product_note: str | None
    cutoff_arm: str
    watch: tuple[str, ...]
    sprint_title: str
    sprint_preamble: str
    requirements: tuple[Requirement, ...]
    hidden_baseline: tuple[str, ...]
    visible_tests: tuple[str, ...]
    visible_count: int
    protected: tuple[str, ...]
    budget_tokens: int
    pass_threshold: float
    time_limit_s: int
    test_timeout_s: int
    amendments: tuple[Amendment, ...]
    wiring: Wiring
    stage2: Stage2Material | None = None

    @property
    def solution_original(self) -> Path:
        return self.root / "solution-original"

    def requirement(self, req_id: str) -> Requirement:
        for req in self.requirements:
            if req.id == req_id:
                return req
        raise UsageError(f"{self.id} has no requirement {req_id!r}")

    def amendment_for(self, session: int) -> Amendment | None:
        return next((a for a in self.amendments if a.session == session), None)
