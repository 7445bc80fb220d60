"""The submission file: an uncompressed tar of a fixed set of members, read without trusting it.

    submission.json             the manifest: format, what was run, each member's sha256
    scorecard.json              the scorecard, byte for byte as the run wrote it
    run.json                    the run's settings and state
    sessions/N/session.json     each session's record, its cutoff.json and its prompt.md
    grading-breaches.json       optional: what grading found of the agent still alive
    work.json                   optional: how the work went (the scorecard's `work` section)
    sandbox.bundle              `git bundle` of every ref of the sandbox
    attestation.sigstore.json   optional: the scorecard's build-provenance attestation

A bundle comes from someone else, so reading one never writes anything: members are read into
memory, only under the names above (no other path, so no traversal), only as regular files (no
symlink, hard link or device), each once, each within its size cap, and the whole file within
`MAX_ARCHIVE_BYTES`. The tar is uncompressed so that nothing expands while it is read, and so
that an attestation made after the bundle can be added to it with `tar -rf`.
"""

from __future__ import annotations

import hashlib
import io
import json
import re
import tarfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from specsnap.errors import UsageError
from specsnap.runs import (
    GRADING_BREACHES as GRADING_BREACHES,  # a run record, when grading found the agent alive
)
from specsnap.trajectory.work import WORK_FILE as WORK_FILE  # how the work went (the scorecard's)

FORMAT = "specsnap-submission"
FORMAT_VERSION = 1
MANIFEST = "submission.json"
SCORECARD = "scorecard.json"
RUN = "run.json"
SANDBOX = "sandbox.bundle"
ATTESTATION = "attestation.sigstore.json"
MAX_SESSIONS = 16

MIB = 1024 * 1024
MAX_ARCHIVE_BYTES = 100 * MIB
MAX_MEMBERS = 4 * MAX_SESSIONS + 8
#: Size caps: members at the top, and each session's files.
LIMITS = {MANIFEST: 64 * 1024, SCORECARD: 4 * MIB, RUN: 64 * 1024, SANDBOX: 64 * MIB}
LIMITS[ATTESTATION] = LIMITS[GRADING_BREACHES] = 1 * MIB
LIMITS[WORK_FILE] = 4 * MIB
SESSION_LIMITS = {"session.json": 4 * MIB, "cutoff.json": 1 * MIB, "prompt.md": 1 * MIB}
_SESSION_MEMBER = re.compile(r"sessions/([1-9][0-9]?)/(session\.json|cutoff\.json|prompt\.md)")
_DIRECTORY = re.compile(r"sessions(/[1-9][0-9]?)?/?")


class SubmissionError(UsageError):
    """The file is not a submission SpecSnap can read: what is wrong, and where."""


def member_limit(name: str) -> int | None:
    """The size cap of member `name`; None when no such member can be in a submission."""
    if name in LIMITS:
        return LIMITS[name]
    match = _SESSION_MEMBER.fullmatch(name)
    if match and int(match.group(1)) <= MAX_SESSIONS:
        return SESSION_LIMITS[match.group(2)]
    return None


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def write_archive(path: Path, members: Mapping[str, bytes]) -> None:
    """Write `members` as a submission: the manifest first, then the rest by name, with fixed
    owners, modes and times, so the same run always gives the same bytes."""
    order = sorted(members, key=lambda name: (name != MANIFEST, name))
    tmp = path.with_name(f".{path.name}.tmp")
    with tarfile.open(tmp, "w", format=tarfile.PAX_FORMAT) as tar:
        for name in order:
            if member_limit(name) is None:
                raise ValueError(f"{name} is not a submission member")
            info = tarfile.TarInfo(name)
            info.size = len(members[name])
            info.mode = 0o644
            info.mtime = 0
            tar.addfile(info, io.BytesIO(members[name]))
    tmp.replace(path)


def read_archive(path: Path) -> dict[str, bytes]:
    """Every member of the submission at `path`, by name, each checked as the module says."""
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise SubmissionError(f"cannot read {path}: {exc}") from None
    if size > MAX_ARCHIVE_BYTES:
        raise SubmissionError(f"{path}: {size} bytes; a submission has at most {MAX_ARCHIVE_BYTES}")
    members: dict[str, bytes] = {}
    try:
        with tarfile.open(path, mode="r:") as tar:
            for count, info in enumerate(tar, start=1):
                if count > MAX_MEMBERS:
                    raise SubmissionError(f"{path}: more than {MAX_MEMBERS} members")
                data = _member(tar, info, path)
                if data is None:
                    continue
                if info.name in members:
                    raise SubmissionError(f"{path}: {info.name!r} is in it twice")
                members[info.name] = data
    except tarfile.TarError as exc:
        raise SubmissionError(f"{path} is not an uncompressed tar file: {exc}") from None
    return members


def _member(tar: tarfile.TarFile, info: tarfile.TarInfo, path: Path) -> bytes | None:
    name = info.name
    if info.isdir() and _DIRECTORY.fullmatch(name):
        return None
    limit = member_limit(name)
    if limit is None:
        raise SubmissionError(
            f"{path}: {name!r} is not a submission member; expected only "
            f"{', '.join(LIMITS)} and sessions/N/"
            f"{{{','.join(SESSION_LIMITS)}}}"
        )
    if not info.isreg() or info.issparse():
        raise SubmissionError(f"{path}: {name!r} is not a regular file (a link or a device)")
    if info.size > limit:
        raise SubmissionError(f"{path}: {name!r} has {info.size} bytes; at most {limit}")
    handle = tar.extractfile(info)
    data = handle.read(limit + 1) if handle is not None else b""
    if len(data) != info.size:
        raise SubmissionError(f"{path}: {name!r} is cut short")
    return data


def manifest_of(
    members: Mapping[str, bytes], card: Mapping[str, Any], specsnap_version: str
) -> bytes:
    """The manifest for `members` (every member but the manifest and the attestation)."""
    files = {
        n: sha256_hex(d) for n, d in sorted(members.items()) if n not in (MANIFEST, ATTESTATION)
    }
    manifest = {
        "format": FORMAT,
        "version": FORMAT_VERSION,
        "specsnap_version": specsnap_version,
        "tier_id": card["tier_id"],
        "seed": card["seed"],
        "agent": card["agent"]["name"],
        "scorecard_sha256": card["receipt"]["scorecard_sha256"],
        "files": files,
    }
    return (json.dumps(manifest, indent=2, sort_keys=True) + "\n").encode()


def manifest_problems(members: Mapping[str, bytes]) -> list[str]:
    """What the manifest says that the members do not bear out (empty when they agree)."""
    try:
        manifest = json.loads(members[MANIFEST])
    except KeyError:
        return [f"no {MANIFEST}: not a SpecSnap submission"]
    except ValueError as exc:
        return [f"{MANIFEST} is not JSON: {exc}"]
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        return [f"{MANIFEST}: format is not {FORMAT!r}"]
    if manifest.get("version") != FORMAT_VERSION:
        return [f"{MANIFEST}: version {manifest.get('version')!r}; expected {FORMAT_VERSION}"]
    files = manifest.get("files")
    if not isinstance(files, dict):
        return [f"{MANIFEST}: files is not an object"]
    problems = []
    present = {n for n in members if n not in (MANIFEST, ATTESTATION)}
    for name in sorted(present | set(files)):
        if name not in files:
            problems.append(f"{name} is in the bundle but not in its manifest")
        elif name not in members:
            problems.append(f"{name} is in the manifest but not in the bundle")
        elif files[name] != sha256_hex(members[name]):
            problems.append(f"{name} does not match its sha256 in the manifest")
    for name in (SCORECARD, RUN, SANDBOX):
        if name not in members:
            problems.append(f"{name} is missing")
    return problems
