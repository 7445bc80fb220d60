"""Verifying a submission: unpack it into a fresh run directory and rebuild its scorecard.

The bundle is someone else's, so nothing in it chooses what SpecSnap reads or runs: the tier is
the verifier's installed tier of that id (never a path the bundle names), run.json is checked
field by field and its tier directory replaced, and the sandbox is a new repository that only
receives the bundle's objects and refs. Then every check must hold:

- `manifest`   every member matches its sha256 in the manifest;
- `version`    the scorecard was made by this SpecSnap version (a rebuild by another is no proof);
- `run`        run.json is a run of this scorecard's tier, seed and agent, every session done;
- `tier`       the installed tier digests to what the receipt and run.json say;
- `prompts`    each session's prompt digests to what its record says;
- `size`       HEAD's files are within bounds (the bundle is capped, not what it inflates to);
- `baseline`   the history starts at the tier's baseline commit, made again here;
- `attestation` (if the bundle has one) it names this scorecard's bytes;
- and `specsnap verify --run`: the receipt's digests, and a rebuild from the records and a
  regrade of HEAD that matches the scorecard in every key but timings.

A rebuild proves that the scorecard is what SpecSnap makes of these records and this history,
and that the graded commit really scores so; the session records themselves are the
submitter's word unless an attestation ties the scorecard to a workflow run (docs/leaderboard.md).
"""

from __future__ import annotations

import dataclasses
import json
import re
import tempfile
import types
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Literal, NoReturn, Union, get_args, get_origin, get_type_hints

from specsnap import __version__
from specsnap.errors import InputError, UsageError
from specsnap.ledger.entry import Attestation, Candidate, Verification
from specsnap.rundir import Run
from specsnap.sandbox.baseline import plant_baseline
from specsnap.sandbox.gitrepo import GitError, own_git, rev_parse
from specsnap.scorecard.aggregate import stage_of
from specsnap.scorecard.io import parse_scorecard
from specsnap.scorecard.model import Scorecard
from specsnap.scorecard.receipt import tier_digest
from specsnap.submission.archive import (
    ATTESTATION,
    GRADING_BREACHES,
    RUN,
    SANDBOX,
    SCORECARD,
    WORK_FILE,
    manifest_problems,
    read_archive,
    sha256_hex,
)
from specsnap.submission.attestation import AttestationError, read_attestation
from specsnap.tier.loading import list_tiers, load_tier, tiers_dir
from specsnap.tier.model import Tier
from specsnap.verify import Check, verify_scorecard

_COMMIT = re.compile(r"[0-9a-f]{40}")
MAX_TREE_BYTES = 256 * 1024 * 1024
_REF = re.compile(r"refs/(heads|tags)/[A-Za-z0-9._/-]{1,200}")


class Refusal(Exception):
    """A check failed: verification stops there (later checks would only repeat it)."""


class Checklist:
    """The checks made so far; a failed one ends the verification."""

    def __init__(self) -> None:
        self.checks: list[Check] = []

    def require(self, name: str, problems: list[str], fine: str) -> None:
        self.checks.append(Check(name, not problems, "; ".join(problems) or fine))
        if problems:
            raise Refusal

    def refuse(self, name: str, problem: str) -> NoReturn:
        self.require(name, [problem], "")
        raise Refusal  # not reached: require raised


@dataclass(frozen=True)
class SubmissionReport:
    """Every check made on a submission, and the candidate for the ledger when all held."""

    bundle: Path
    checks: tuple[Check, ...]
    candidate: Candidate | None

    @property
    def ok(self) -> bool:
        return self.candidate is not None and all(c.ok for c in self.checks)

    @property
    def reasons(self) -> tuple[str, ...]:
        return tuple(f"{c.name}: {c.detail}" for c in self.checks if not c.ok)


def scorecard_digest_of(bundle: Path) -> str:
    """The receipt digest the bundle's scorecard states (unverified; to look it up)."""
    members = read_archive(bundle)
    try:
        return str(json.loads(members[SCORECARD])["receipt"]["scorecard_sha256"])
    except (KeyError, TypeError, ValueError):
        return ""


def verify_submission(bundle: Path, *, attestation_verified: bool = False) -> SubmissionReport:
    """Unpack `bundle`, make every check, and rebuild its scorecard (see the module)."""
    members = read_archive(bundle)
    if attestation_verified and ATTESTATION not in members:
        raise UsageError(f"{bundle} carries no attestation, so none can have been verified")
    checks = Checklist()
    candidate = None
    with tempfile.TemporaryDirectory(prefix="specsnap-submission-") as tmp:
        work = Path(tmp)
        try:
            checks.require("manifest", manifest_problems(members), "every member matches it")
            card = _scorecard(members, checks)
            checks.require("version", _version_problems(card), f"SpecSnap {__version__}")
            tier, run = _run(members[RUN], card, checks)
            checks.require("tier", _tier_problems(tier, card, run), "the installed tier's digest")
            checks.require("prompts", _prompt_problems(members, run), "each matches its record")
            run_dir = _unpack(members, run, work)
            checks.require("size", _size_problems(run_dir / "sandbox"), "within bounds")
            baseline = _baseline_problems(tier, run, run_dir, work)
            checks.require("baseline", baseline, f"HEAD descends from {run.baseline_commit}")
            attestation = _attestation(members, attestation_verified, checks)
            rebuilt = verify_scorecard(run_dir / SCORECARD, run_dir)
            checks.checks.extend(rebuilt.checks)
            if rebuilt.ok:
                digest = sha256_hex(bundle.read_bytes())
                candidate = candidate_of(card, checks.checks, attestation, digest)
        except Refusal:
            pass
    return SubmissionReport(bundle, tuple(checks.checks), candidate)


def _scorecard(members: dict[str, bytes], checks: Checklist) -> Scorecard:
    try:
        return parse_scorecard(json.loads(members[SCORECARD]), SCORECARD)
    except (ValueError, InputError) as exc:
        checks.refuse("scorecard", str(exc))


def _version_problems(card: Scorecard) -> list[str]:
    if card.specsnap_version == __version__:
        return []
    return [
        f"made by SpecSnap {card.specsnap_version}; this is {__version__}: verify it with the "
        "version that made it"
    ]


def _json_types(hint: Any) -> tuple[type, ...]:
    """The JSON value types a run.json field of type `hint` may hold (run_dir is stored as null)."""
    if get_origin(hint) in (Union, types.UnionType):
        return tuple(t for arg in get_args(hint) for t in _json_types(arg))
    if get_origin(hint) is Literal:
        return tuple({type(value) for value in get_args(hint)})
    plain = get_origin(hint) or hint
    return {Path: (type(None),), type(None): (type(None),)}.get(plain, (plain,))


def _run(data: bytes, card: Scorecard, checks: Checklist) -> tuple[Tier, Run]:
    try:
        fields = json.loads(data)
    except ValueError as exc:
        checks.refuse("run", f"{RUN} is not JSON: {exc}")
    problems = _run_field_problems(fields)
    if problems:
        checks.require("run", problems, "")
    tier_id = fields["tier_id"]
    if tier_id not in list_tiers():
        checks.refuse("run", f"{tier_id!r} is not an installed tier ({', '.join(list_tiers())})")
    tier = load_tier(tiers_dir() / tier_id)
    expected = [card.tier_id, card.seed, card.agent.name, dict(card.agent.options)]
    found = [tier_id, fields["seed"], fields["agent"], fields["agent_options"]]
    if found != expected:
        problems.append("it is a run of another tier, seed, agent or agent options than the card")
    if fields["sessions_done"] != list(range(1, tier.sessions + 1)):
        problems.append(f"sessions done {fields['sessions_done']}; {tier.id} has {tier.sessions}")
    checks.require("run", problems, f"{tier.id}, seed {card.seed}, {tier.sessions} sessions")
    fields["tier_dir"] = str(tier.root)  # the verifier's tier, whatever path the bundle named
    return tier, Run(**fields)


def _run_field_problems(fields: Any) -> list[str]:
    """run.json must hold exactly the fields of a Run, each of its type (as `Run` declares)."""
    if not isinstance(fields, dict):
        return [f"{RUN} is not an object"]
    hints = get_type_hints(Run)
    declared = {f.name: _json_types(hints[f.name]) for f in dataclasses.fields(Run)}
    problems = [f"{RUN}: unknown key {key!r}" for key in sorted(set(fields) - set(declared))]
    problems += [f"{RUN}: no {key!r}" for key in sorted(set(declared) - set(fields))]
    for key, allowed in declared.items():
        value = fields.get(key)
        wrong_bool = isinstance(value, bool) and bool not in allowed  # True is an int to Python
        if key in fields and (not isinstance(value, allowed) or wrong_bool):
            problems.append(f"{RUN}: {key} is {value!r}")
    if problems:
        return problems
    if not all(
        isinstance(k, str) and isinstance(v, str) for k, v in fields["agent_options"].items()
    ):
        problems.append(f"{RUN}: agent_options must map names to strings")
    if not all(isinstance(i, int) and not isinstance(i, bool) for i in fields["sessions_done"]):
        problems.append(f"{RUN}: sessions_done must list session numbers")
    if not _COMMIT.fullmatch(fields["baseline_commit"]):
        problems.append(f"{RUN}: baseline_commit is not a commit id")
    return problems


def _tier_problems(tier: Tier, card: Scorecard, run: Run) -> list[str]:
    installed = tier_digest(tier.root)
    return [
        f"{what} says {said[:12]}…; the installed {tier.id} digests to {installed[:12]}…"
        for what, said in (("the receipt", card.receipt.tier_sha256), (RUN, run.tier_sha256))
        if said != installed
    ]


def _prompt_problems(members: dict[str, bytes], run: Run) -> list[str]:
    problems = []
    for index in run.sessions_done:
        record_name, prompt_name = f"sessions/{index}/session.json", f"sessions/{index}/prompt.md"
        if record_name not in members or prompt_name not in members:
            problems.append(f"session {index}: its record or prompt is missing")
            continue
        try:
            said = json.loads(members[record_name]).get("prompt_sha256")
        except (ValueError, AttributeError):
            problems.append(f"{record_name} is not a JSON object")
            continue
        if said != sha256_hex(members[prompt_name]):
            problems.append(f"session {index}: the prompt does not digest to prompt_sha256")
    return problems


def _unpack(members: dict[str, bytes], run: Run, work: Path) -> Path:
    """A fresh run directory laid out as `prepare` lays one out, holding the bundle's records."""
    run_dir = work / "run"
    run_dir.mkdir(mode=0o711)
    (run_dir / SCORECARD).write_bytes(members[SCORECARD])
    sessions = run_dir / "sessions"
    sessions.mkdir(mode=0o700)
    for index in run.sessions_done:
        session_dir = sessions / str(index)
        session_dir.mkdir(mode=0o700)
        for name in ("session.json", "cutoff.json", "prompt.md"):
            data = members.get(f"sessions/{index}/{name}")
            if data is not None:
                (session_dir / name).write_bytes(data)
    for name in (GRADING_BREACHES, WORK_FILE):
        if name in members:
            (run_dir / name).write_bytes(members[name])
    replace(run, run_dir=run_dir.resolve()).save()
    bundle = work / SANDBOX
    bundle.write_bytes(members[SANDBOX])
    _sandbox_from(bundle, run_dir / "sandbox")
    return run_dir


def _sandbox_from(bundle: Path, sandbox: Path) -> None:
    """A new repository with the bundle's objects, its branches and tags, and HEAD (detached at
    the commit the bundle's HEAD names); nothing else of the submitter's repository."""
    sandbox.mkdir(mode=0o700)
    try:
        own_git(sandbox, "init", "-q", "-b", "main")
        heads = own_git(sandbox, "bundle", "list-heads", str(bundle)).decode().splitlines()
        own_git(sandbox, "bundle", "unbundle", str(bundle))
    except GitError as exc:
        raise UsageError(f"{SANDBOX} is not a git bundle SpecSnap can read: {exc}") from None
    for line in heads:
        commit, _, ref = line.partition(" ")
        if not _COMMIT.fullmatch(commit):
            continue
        if ref == "HEAD":
            own_git(sandbox, "update-ref", "--no-deref", "HEAD", commit)
        elif _REF.fullmatch(ref) and ".." not in ref:
            own_git(sandbox, "update-ref", ref, commit, check=False)


def _size_problems(sandbox: Path) -> list[str]:
    """A bundle is capped, but not what its objects inflate to: the graded tree is bounded
    before it is written out for grading."""
    listing = own_git(sandbox, "ls-tree", "-r", "-l", "-z", "HEAD", check=False)
    total = 0
    for record in listing.split(b"\0"):
        size = record.split(b"\t", 1)[0].split()[-1:] if record else []
        if size and size[0].isdigit():
            total += int(size[0])
    if total > MAX_TREE_BYTES:
        return [f"HEAD's files total {total} bytes; at most {MAX_TREE_BYTES} are graded"]
    return []


def _baseline_problems(tier: Tier, run: Run, run_dir: Path, work: Path) -> list[str]:
    made = plant_baseline(tier.starter, work / "baseline")
    if made != run.baseline_commit:
        return [f"{RUN} names baseline {run.baseline_commit[:12]}; {tier.id}'s is {made[:12]}"]
    sandbox = run_dir / "sandbox"
    head = rev_parse(sandbox)
    if head is None:
        return ["the bundle's history has no HEAD"]
    # `git merge-base A B` is A exactly when A is an ancestor of B (or B itself).
    base = own_git(sandbox, "merge-base", made, head, check=False).decode().strip()
    if base != made:
        return [f"HEAD {head[:12]} does not descend from the baseline {made[:12]}"]
    return []


def _attestation(
    members: dict[str, bytes], signature_checked: bool, checks: Checklist
) -> Attestation | None:
    if ATTESTATION not in members:
        return None
    digest = sha256_hex(members[SCORECARD])
    try:
        found = read_attestation(members[ATTESTATION], digest, signature_checked)
    except AttestationError as exc:
        checks.refuse("attestation", str(exc))
    said = "its signature checked by the caller" if signature_checked else "signature not checked"
    checks.require("attestation", [], f"names this scorecard; {said}")
    return found


def candidate_of(
    card: Scorecard, checks: Sequence[Check], attestation: Attestation | None, bundle_sha256: str
) -> Candidate:
    """What the ledger records of `card`, verified by `checks` from the bundle `bundle_sha256`."""
    return Candidate(
        scorecard_sha256=card.receipt.scorecard_sha256,
        tier_id=card.tier_id,
        tier_sha256=card.receipt.tier_sha256,
        seed=card.seed,
        agent=card.agent.name,
        agent_options=dict(card.agent.options),
        stage=stage_of(card),
        specsnap_version=card.specsnap_version,
        head_commit=card.receipt.head_commit,
        raw_retention=card.scores.raw_retention,
        net_retention=card.scores.net_retention,
        tes=card.scores.tes,
        passed=card.passed,
        official=card.official,
        unofficial_reasons=card.unofficial_reasons,
        attestation=attestation,
        verification=Verification(
            scope="rebuild",
            specsnap_version=__version__,
            checks=tuple(c.name for c in checks),
            submission_sha256=bundle_sha256,
        ),
        retained_without_recovery=card.scores.retained_without_recovery,
        handoff=card.handoff_mode if card.handoff_mode != "fresh" else None,
    )
