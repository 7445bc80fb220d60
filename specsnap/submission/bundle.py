"""`specsnap submit RUN`: one file that lets someone else verify a graded run.

The bundle carries what `specsnap verify --run` needs to rebuild the scorecard: the run's
settings (run.json), each session's record, cutoff and prompt, what grading found of the agent
still alive (if anything), the sandbox's whole history as a `git bundle`, and the scorecard;
optionally the scorecard's build-provenance attestation. It
carries no session output, no HOME and nothing of the tier (the verifier has its own).
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

from specsnap import __version__
from specsnap.errors import UsageError
from specsnap.rundir import RUN_FILE, load_run
from specsnap.sandbox.gitrepo import GitError, git
from specsnap.scorecard.io import load_scorecard
from specsnap.scorecard.receipt import scorecard_digest
from specsnap.submission.archive import (
    ATTESTATION,
    GRADING_BREACHES,
    MANIFEST,
    RUN,
    SANDBOX,
    SCORECARD,
    WORK_FILE,
    manifest_of,
    sha256_hex,
    write_archive,
)
from specsnap.submission.attestation import AttestationError, read_attestation

BUNDLE_NAME = "submission.specsnap.tar"


def create_submission(
    run_dir: Path, out: Path | None = None, attestation: Path | None = None
) -> Path:
    """Write the submission of the graded run at `run_dir` (default RUN/submission.specsnap.tar)
    and return its path; `attestation` is the scorecard's Sigstore bundle, if it has one."""
    run = load_run(run_dir)
    card_path = run_dir / SCORECARD
    if not card_path.is_file():
        raise UsageError(f"{run_dir} has no {SCORECARD}: grade the run first (`specsnap grade`)")
    card = load_scorecard(card_path)
    document = json.loads(card_path.read_text(encoding="utf-8"))
    if scorecard_digest(document) != card.receipt.scorecard_sha256:
        raise UsageError(f"{card_path} does not match its receipt's digest; it was edited")
    if (card.tier_id, card.seed, card.agent.name) != (run.tier_id, run.seed, run.agent):
        raise UsageError(f"{card_path} is not the scorecard of the run in {run_dir}")
    members = {SCORECARD: card_path.read_bytes(), RUN: (run_dir / RUN_FILE).read_bytes()}
    for index in run.sessions_done:
        session_dir = run.session_dir(index)
        for name in ("session.json", "cutoff.json", "prompt.md"):
            if (session_dir / name).is_file():
                members[f"sessions/{index}/{name}"] = (session_dir / name).read_bytes()
    for name in (GRADING_BREACHES, WORK_FILE):  # records the scorecard is rebuilt from
        if (run_dir / name).is_file():
            members[name] = (run_dir / name).read_bytes()
    members[SANDBOX] = _git_bundle(run.sandbox)
    if attestation is not None:
        data = attestation.read_bytes()
        try:
            read_attestation(data, sha256_hex(members[SCORECARD]), signature_checked=False)
        except AttestationError as exc:
            raise UsageError(f"{attestation}: {exc}") from None
        members[ATTESTATION] = data
    members[MANIFEST] = manifest_of(members, document, __version__)
    target = out or run_dir / BUNDLE_NAME
    write_archive(target, members)
    return target


def _git_bundle(sandbox: Path) -> bytes:
    """Every ref of the sandbox, with all the history they reach."""
    with tempfile.TemporaryDirectory(prefix="specsnap-bundle-") as tmp:
        path = Path(tmp) / SANDBOX
        try:
            git(sandbox, "bundle", "create", "-q", str(path), "--all")
        except GitError as exc:
            raise UsageError(f"cannot bundle the sandbox's history: {exc}") from None
        return path.read_bytes()
