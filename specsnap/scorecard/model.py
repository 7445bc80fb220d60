"""The scorecard of one graded run, as frozen values: the format of scorecard.json.

These classes are the one definition of the format. Each field is a JSON key (`meta` in its
metadata renames or constrains one); the shipped JSON Schema is derived from them
(`specsnap.scorecard.schema`), `specsnap.scorecard.io` loads and dumps them, and a session
record's fields are picked by name (`Session.from_record`). Adding a field to a session record
is therefore one line here (then `SPECSNAP_REGENERATE=1` rewrites the schema and golden files).

Timings are every key ending in `_s` or `_ms` and the `timings` object; nothing else depends on
when the run happened.

Over 400 lines: one definition of the whole format reads better than one split across files.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, get_args

from specsnap.scorecard.codec import from_json, meta

SCHEMA_VERSION: Literal[3] = 3  # Scorecard.schema_version's one value
SHA256 = "^[0-9a-f]{64}$"

ExitStatus = Literal["completed", "cutoff", "crashed", "timeout", "failed-to-start"]
TokenSource = Literal["metered", "reported", "unknown"]
TOKEN_SOURCES: tuple[TokenSource, ...] = get_args(TokenSource)
TOKEN_KEYS = ("input", "output", "cache_write", "cache_read")
CutoffReason = Literal["source-edit", "commit-attempt", "commit"]
SourceChange = Literal["created", "changed", "deleted"]
WebTools = Literal["disabled", "not-disableable"]
Stage = Literal[1, 2]
#: How sessions after the cutoff continued (docs/protocol.md); `fresh` is the protocol's.
HandoffMode = Literal["fresh", "resume", "compact"]
HANDOFF_MODES: tuple[HandoffMode, ...] = get_args(HandoffMode)
PerturbationKind = Literal["lost-work", "teammate-refactor", "planted-regression", "stale-note"]
Channel = Literal["retained without recovery", "recovered"]
#: Stage II: how a requirement ended (docs/protocol.md): passed with its ticket unread after
#: session 1 before the code was written, passed after it was read, or not passed.
Retention = Literal["retained", "recovered", "lost"]
#: Risky moves (specsnap.trajectory.risky): a shell command in a trajectory, or a change in the
#: sandbox's git history. Signals of how the work was done, never part of a score.
ShellRisk = Literal[
    "git-reset-hard", "git-checkout-discard", "git-clean", "force-push", "no-verify", "rm-rf"
]
HistoryRisk = Literal[
    "test-deleted", "assertions-removed", "skip-added", "broad-rewrite", "dependency-added"
]
RiskKind = Literal[ShellRisk, HistoryRisk]
SHELL_RISKS: tuple[ShellRisk, ...] = get_args(ShellRisk)


@dataclass(frozen=True)
class Agent:
    """The adapter that ran the sessions, and the options it was given."""

    name: str
    options: Mapping[str, str]


@dataclass(frozen=True)
class Cutoff:
    """Whether the session was armed, and what fired its cutoff: a source edit (`file`,
    `change`) or a commit (`reason` `commit-attempt` or `commit`, no file)."""

    armed: bool
    fired: bool
    reason: CutoffReason | None
    file: str | None
    change: SourceChange | None
    latency_ms: float | None = field(metadata=meta(minimum=0))
    after_s: float | None = field(metadata=meta(minimum=0))  # session start to freeze


@dataclass(frozen=True)
class Tokens:
    """Tokens one session used (docs/protocol.md) and where the figures came from."""

    # Adapters, the meter and the scorecard all hand this one value along.

    input: int = field(default=0, metadata=meta(minimum=0))
    output: int = field(default=0, metadata=meta(minimum=0))
    cache_write: int = field(default=0, metadata=meta(minimum=0))
    cache_read: int = field(default=0, metadata=meta(minimum=0))
    source: TokenSource = "unknown"

    @classmethod
    def unknown(cls) -> Tokens:
        return cls(source="unknown")

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Tokens:
        """The inverse of `as_dict` (a session record's `tokens`)."""
        return cls(
            data["input"], data["output"], data["cache_write"], data["cache_read"], data["source"]
        )

    def as_dict(self) -> dict[str, Any]:
        return {key: getattr(self, key) for key in (*TOKEN_KEYS, "source")}

    def counts(self) -> tuple[int, int, int, int]:
        return (self.input, self.output, self.cache_write, self.cache_read)

    def __add__(self, other: Tokens) -> Tokens:
        source = self.source if self.source == other.source else "unknown"
        return Tokens(
            self.input + other.input,
            self.output + other.output,
            self.cache_write + other.cache_write,
            self.cache_read + other.cache_read,
            source,
        )


@dataclass(frozen=True)
class Exit:
    """How the session ended; `code` and `signal` only when the agent ended it itself."""

    status: ExitStatus
    code: int | None
    signal: str | None


@dataclass(frozen=True)
class Breach:
    """A protocol breach: in a session (`session`), or in the graded code (`file`, `line`)."""

    session: int | None
    what: str
    file: str | None = field(default=None, metadata=meta(omit_none=True))
    line: int | None = field(default=None, metadata=meta(omit_none=True))


@dataclass(frozen=True)
class Meter:
    """What SpecSnap's token meter saw in a session (specsnap.metering)."""

    apis: tuple[str, ...]  # the model APIs routed through it (none for model-free controls)
    answers: int = field(metadata=meta(minimum=0))
    partial_answers: int = field(metadata=meta(minimum=0))  # still arriving when it stopped
    refused_requests: int = field(metadata=meta(minimum=0))  # without the session's placeholder
    # Refused: an endpoint it cannot count (Message Batches, files, a field mask…).
    unmetered_requests: int = field(metadata=meta(minimum=0))
    # Billed answers whose usage it could not read: the session's tokens are then unknown.
    unreadable_answers: int = field(metadata=meta(minimum=0))
    # API → the base URL the meter forwarded to, for each API not sent to its public address
    # (the caller's *_BASE_URL: a gateway, a proxy, a scripted server); absent when none was.
    upstreams: Mapping[str, str] | None = field(default=None, metadata=meta(omit_none=True))


@dataclass(frozen=True)
class TrackerRequest:
    """One request to Stage II's ticket tracker, as SpecSnap served it."""

    request: str  # as the agent sent it (at most 200 characters)
    ticket: str | None  # the ticket shown in full, if one was
    served: bool  # False for an unknown ticket or bad usage (an answer is still served)
    bytes: int = field(metadata=meta(minimum=0))
    chars: int = field(metadata=meta(minimum=0))
    at_s: float = field(metadata=meta(minimum=0))  # after the session's start


@dataclass(frozen=True)
class TrackerUse:
    """What the agent asked Stage II's ticket tracker in a session (specsnap.stage2.tracker); the
    first 200 requests are listed, all are counted."""

    consultations: int = field(metadata=meta(minimum=0))
    bytes_served: int = field(metadata=meta(minimum=0))
    chars_served: int = field(metadata=meta(minimum=0))
    requests: tuple[TrackerRequest, ...]


@dataclass(frozen=True)
class Handoff:
    """Under `resume`/`compact`: what of the cut-off session's HOME moved into this session's
    (the adapter's declared session store only), its Merkle digest, and the id resumed."""

    mode: HandoffMode
    session_id: str | None
    state_files: int = field(metadata=meta(minimum=0))
    state_bytes: int = field(metadata=meta(minimum=0))
    state_sha256: str = field(metadata=meta(pattern=SHA256))
    skipped: tuple[str, ...]  # entries refused: not regular files or directories, or too big
    error: str | None  # why no session could be resumed (the session then started without it)


@dataclass(frozen=True)
class Session:
    """One agent session, from its record (RUN_DIR/sessions/N/session.json)."""

    index: int = field(metadata=meta(minimum=1))
    prompt_sha256: str = field(metadata=meta(pattern=SHA256))
    cutoff: Cutoff
    tokens: Tokens
    tokens_reported: Tokens | None = field(metadata=meta(omit_none=True))  # beside metered tokens
    meter: Meter | None  # None when the meter was off
    egress_enforced: bool  # the agent's only network egress was the meter
    web_tools: WebTools
    exit: Exit
    breaches: tuple[Breach, ...]
    notes: tuple[str, ...]
    duration_s: float = field(metadata=meta(minimum=0))
    tracker: TrackerUse | None = field(default=None, metadata=meta(omit_none=True))  # Stage II
    handoff: Handoff | None = field(default=None, metadata=meta(omit_none=True))  # not `fresh`

    @classmethod
    def from_record(cls, record: Mapping[str, Any]) -> Session:
        """The session as its record states it; keys the scorecard does not show are left out.
        A record without a key the model requires raises DecodeError, naming the key."""
        session: Session = from_json(cls, dict(record))
        return session


@dataclass(frozen=True)
class TestResult:
    """A hidden test of a requirement and how it ended (`passed`, `failed`, `error`, ...)."""

    id: str
    outcome: str


@dataclass(frozen=True)
class Requirement:
    id: str
    title: str
    package: str
    passed: bool
    tests: tuple[TestResult, ...]
    retention: Retention | None = field(default=None, metadata=meta(omit_none=True))  # Stage II

    @property
    def failing_tests(self) -> tuple[TestResult, ...]:
        return tuple(t for t in self.tests if t.outcome != "passed")


@dataclass(frozen=True)
class BaselineFailure:
    """A baseline test that did not pass, or what kept the test run from counting."""

    test: str
    outcome: str


@dataclass(frozen=True)
class ProtectedChange:
    path: str
    change: str  # modified, deleted or replaced


@dataclass(frozen=True)
class WiringViolation:
    """An import that wiring.yaml forbids, found statically or while the tests ran."""

    importer: str
    imported: str
    file: str
    line: int
    rule: str
    kind: str  # static or dynamic


Finding = BaselineFailure | ProtectedChange | WiringViolation | Breach


@dataclass(frozen=True)
class Gate:
    """The regression gate (docs/protocol.md) plus SpecSnap's protocol condition."""

    holds: bool
    baseline_ok: bool
    protected_ok: bool
    wiring_ok: bool
    protocol_ok: bool
    baseline_failures: tuple[BaselineFailure, ...]
    protected_changes: tuple[ProtectedChange, ...]
    wiring_violations: tuple[WiringViolation, ...]
    protocol_breaches: tuple[Breach, ...]

    @property
    def findings(self) -> tuple[Finding, ...]:
        """Every reason the gate does not hold, in the one order every report lists them."""
        return (
            *self.baseline_failures,
            *self.protected_changes,
            *self.wiring_violations,
            *self.protocol_breaches,
        )


@dataclass(frozen=True)
class Scores:
    raw_retention: float = field(metadata=meta(minimum=0, maximum=1))
    net_retention: float = field(metadata=meta(minimum=0, maximum=1))
    effective_tokens: float | None = field(metadata=meta(minimum=0))
    cache_read_weight: float = field(metadata=meta(minimum=0))
    budget: int = field(metadata=meta(minimum=1))
    tes: float | None = field(metadata=meta(minimum=0, maximum=1))
    passed: bool = field(metadata=meta(key="pass"))
    pass_threshold: float = field(metadata=meta(minimum=0, maximum=1))
    #: Stage II: requirements retained (not recovered) over all, zero when the gate fails; PASS
    #: then reads it instead of net retention.
    retained_without_recovery: float | None = field(
        default=None, metadata=meta(minimum=0, maximum=1, omit_none=True)
    )


@dataclass(frozen=True)
class Grading:
    """Facts of the grader's test run (None when grading never got that far)."""

    tests_collected: int | None
    tests_expected: int | None
    pytest_exit_code: int | None
    run_problem: str | None
    network_isolated: bool | None
    isolation: str | None
    subjects: int | None = field(metadata=meta(minimum=0))  # subject processes the judge started
    #: How what one subject leaves outside its workspace is kept from the next: "private
    #: namespaces", "owner sweep" (no namespace could be made: each account removes its own
    #: files and IPC objects when its subject ends), None (subjects run as the user itself).
    shared_state: str | None = None


@dataclass(frozen=True)
class Timings:
    sessions_s: tuple[float, ...]
    grading_s: float = field(metadata=meta(minimum=0))


@dataclass(frozen=True)
class Change:
    """What a perturbation changed at `path`: a file's git blob id (None: no file) or, for a
    stale note, the value the note stated and the value it states now."""

    path: str
    before: str | None
    after: str | None


@dataclass(frozen=True)
class Perturbation:
    """One change SpecSnap made to the workspace before `session` (docs/protocol.md, Stage II),
    and whether the agent detected and repaired it (None: not a fault, or not applied)."""

    kind: PerturbationKind
    session: int = field(metadata=meta(minimum=2))
    applied: bool
    what: str  # what was done, or why it could not be
    requirement: str | None  # the requirement a stale value belongs to
    commit: str | None  # a teammate's commit
    changes: tuple[Change, ...]
    detected: bool | None
    repaired: bool | None


@dataclass(frozen=True)
class StageTwo:
    """Stage II: the perturbations and how the agent met them, and the channel its score used
    (`recovered` when it consulted the tracker in a session after the first)."""

    perturbations_chosen: tuple[PerturbationKind, ...]  # all four unless the run named some
    perturbations: tuple[Perturbation, ...]
    faults: int = field(metadata=meta(minimum=0))  # applied perturbations that are faults
    detected: int = field(metadata=meta(minimum=0))
    repaired: int = field(metadata=meta(minimum=0))
    consultations: int = field(metadata=meta(minimum=0))  # tracker requests after session 1
    channel: Channel


@dataclass(frozen=True)
class Receipt:
    """What binds the scorecard to what was run (docs/protocol.md)."""

    seed: int
    params: Mapping[str, str]  # the values the seed drew (docs/tiers.md), as written in prompts
    stage: Stage
    specsnap_version: str
    tier_id: str
    tier_sha256: str = field(metadata=meta(pattern=SHA256))
    head_commit: str | None
    sandbox_tree_sha256: str | None
    scorecard_sha256: str = field(metadata=meta(pattern=SHA256))
    handoff: HandoffMode | None = field(default=None, metadata=meta(omit_none=True))


@dataclass(frozen=True)
class Trajectory:
    """How one session worked, from its metered trajectory (sessions/N/trajectory.json)."""

    turns: int = field(metadata=meta(minimum=0))  # the model's answers
    actions: Mapping[str, int]  # actions by kind (read, search, edit, shell, ...)
    test_runs: int = field(metadata=meta(minimum=0))
    longest_failing_streak: int = field(metadata=meta(minimum=0))  # test runs failing in a row
    repeated_failing_command: str | None  # a failing shell command run again (bounded)
    tokens_before_first_edit: int | None = field(metadata=meta(minimum=0))  # None: no edit
    rediscovered_files: int = field(metadata=meta(minimum=0))  # already read in an earlier one


@dataclass(frozen=True)
class WorkSession:
    """One session's trajectory summary, or (`trajectory` None) `why` it has none."""

    session: int = field(metadata=meta(minimum=1))
    trajectory: Trajectory | None
    why: str | None = field(default=None, metadata=meta(omit_none=True))


@dataclass(frozen=True)
class RiskyMove:
    """A risky move: in a session (None when the history cannot tell), at a step ("step 4") or
    a commit (its short sha); a shell move names its `command`, a change in history its `file`
    (both bounded, as the agent wrote them)."""

    session: int | None
    where: str
    kind: RiskKind
    file: str | None = field(default=None, metadata=meta(omit_none=True))
    command: str | None = field(default=None, metadata=meta(omit_none=True))


@dataclass(frozen=True)
class RequirementTested:
    """Whether the agent's tests test a requirement: some pass with every reference in place
    and fail without this one's (`tests`, the first few, bounded)."""

    id: str
    tested: bool
    tests: tuple[str, ...]


@dataclass(frozen=True)
class AgentTests:
    """The agent's own tests (specsnap.quality.agent_tests): its test files added or changed
    since the baseline, run as subjects against the reference solution; `why` says why nothing,
    or not everything, was measured."""

    files: tuple[str, ...]  # bounded, as the agent named them
    tests: int = field(metadata=meta(minimum=0))  # collected with every reference in place
    passed_with_all: int = field(metadata=meta(minimum=0))
    credited: tuple[str, ...]  # the requirements tested by the agent
    requirements: tuple[RequirementTested, ...]
    why: str | None


@dataclass(frozen=True)
class Maintainability:
    """Signals of the cumulative diff from the baseline (specsnap.quality.maintainability);
    None where a signal could not be measured (`why`, when none was)."""

    lines_added: int | None = field(metadata=meta(minimum=0))
    reference_lines_added: int | None = field(metadata=meta(minimum=0))
    files_changed: int | None = field(metadata=meta(minimum=0))
    out_of_scope: tuple[str, ...]  # source outside the sprint's packages (bounded)
    out_of_scope_total: int = field(metadata=meta(minimum=0))
    duplicated_blocks: int | None = field(metadata=meta(minimum=0))
    duplicated_lines: int | None = field(metadata=meta(minimum=0))
    complexity_added: int | None  # graded minus baseline, over the changed source files
    most_complex: str | None  # "file::function (N)" among the functions the diff touches
    dead_code: tuple[str, ...]  # "file:line what" (bounded)
    dead_code_total: int = field(metadata=meta(minimum=0))
    unparsed: int = field(metadata=meta(minimum=0))  # files a parser refused
    why: str | None = field(default=None, metadata=meta(omit_none=True))


@dataclass(frozen=True)
class OldRuleStatement:
    """Where the graded commit still states a rule an amendment replaced."""

    file: str
    line: int = field(metadata=meta(minimum=1))
    says: str  # the old rule, as the amendment's check names it
    text: str  # the line (bounded)


@dataclass(frozen=True)
class AmendmentContinuity:
    """One amendment: the docs and docstrings it contradicts revised, or left stating the old
    rule (specsnap.quality.continuity)."""

    amendment: str  # "A1": the tier's amendments in order
    session: int = field(metadata=meta(minimum=1))
    amends: tuple[str, ...]
    status: Literal["revised", "silent contradiction", "not given", "not checked"]
    statements: tuple[OldRuleStatement, ...]  # the first ones (bounded)
    statements_total: int = field(metadata=meta(minimum=0))


@dataclass(frozen=True)
class Continuity:
    """Per amendment of the tier, whether the old rule is still stated; `why` alone when the
    history could not be read."""

    amendments: tuple[AmendmentContinuity, ...]
    why: str | None = field(default=None, metadata=meta(omit_none=True))


@dataclass(frozen=True)
class Work:
    """How the work went (RUN_DIR/work.json): each session's trajectory and the risky moves, the
    first RISKY_MOVES_MAX (specsnap.scorecard.work) listed, all counted; the agent's own tests,
    the diff's maintainability and the amendments' continuity. Signals only: no score or the
    gate reads them."""

    sessions: tuple[WorkSession, ...]
    risky_moves: tuple[RiskyMove, ...]
    risky_moves_total: int = field(metadata=meta(minimum=0))
    #: None in work.json from before they existed.
    agent_tests: AgentTests | None = field(default=None, metadata=meta(omit_none=True))
    maintainability: Maintainability | None = field(default=None, metadata=meta(omit_none=True))
    #: None for a tier without amendments.
    continuity: Continuity | None = field(default=None, metadata=meta(omit_none=True))


@dataclass(frozen=True)
class Scorecard:
    """SpecSnap scorecard (scorecard.json): one graded run and its receipt."""

    schema_version: Literal[3]
    specsnap_version: str
    tier_id: str
    tier_name: str
    seed: int
    params: Mapping[str, str]  # the values the seed drew for this tier's requirements
    stage: Stage  # 1, or 2: adversarial state perturbation with a recovery channel
    agent: Agent
    official: bool
    unofficial_reasons: tuple[str, ...]
    sessions: tuple[Session, ...]
    requirements: tuple[Requirement, ...]
    gate: Gate
    scores: Scores
    grading: Grading
    timings: Timings
    receipt: Receipt
    stage2: StageTwo | None = field(default=None, metadata=meta(omit_none=True))
    #: None in scorecards from before handoff modes existed: they are `fresh` (`handoff_mode`).
    handoff: HandoffMode | None = field(default=None, metadata=meta(omit_none=True))
    #: None for a run graded without work.json (scorecards from before it existed).
    work: Work | None = field(default=None, metadata=meta(omit_none=True))

    @property
    def handoff_mode(self) -> HandoffMode:
        return self.handoff or "fresh"

    @property
    def key(self) -> str:
        """The run's (tier, seed, stage, handoff) cell; stable across commits, so it matches
        base scores (a Stage II score is never compared with a Stage I one, nor a resumed
        run's with a fresh one)."""
        stage = "/stage-2" if self.stage == 2 else ""
        mode = f"/{self.handoff_mode}" if self.handoff_mode != "fresh" else ""
        return f"{self.tier_id}/seed-{self.seed}{stage}{mode}"

    @property
    def label(self) -> str:
        return cell_label(self.tier_id, self.seed, self.stage, self.handoff_mode)

    @property
    def passed(self) -> bool:
        return self.scores.passed

    @property
    def lost(self) -> tuple[Requirement, ...]:
        """The requirements not retained."""
        return tuple(r for r in self.requirements if not r.passed)


def cell_label(tier_id: str, seed: int, stage: int, handoff: str = "fresh") -> str:
    """`tier-2, seed 7` (`, Stage II` for a Stage II run, `, resume handoff` for a handoff mode
    other than fresh): how every surface names a run."""
    mode = f", {handoff} handoff" if handoff != "fresh" else ""
    return f"{tier_id}, seed {seed}" + (", Stage II" if stage == 2 else "") + mode
