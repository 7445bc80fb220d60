"""A GitHub build-provenance attestation of a scorecard, read offline (pure).

`actions/attest-build-provenance` signs an in-toto statement (SLSA provenance v1) naming the
scorecard file's sha256 and the workflow run that produced it, and writes a Sigstore bundle.
Offline, SpecSnap reads the statement out of the bundle's DSSE envelope, checks that it names
this scorecard's bytes, and records what it claims (repository, workflow, commit, run). It does
not check the signature, the certificate or the transparency-log entry: that needs Sigstore's
trust root, and is what `gh attestation verify` does online (the leaderboard workflow runs it
and says so with `--attestation-verified`). An unchecked statement is a claim anyone can write.
"""

from __future__ import annotations

import base64
import binascii
import json
from typing import Any

from specsnap.ledger.entry import Attestation

IN_TOTO_PAYLOAD = "application/vnd.in-toto+json"
STATEMENT_TYPES = ("https://in-toto.io/Statement/v1", "https://in-toto.io/Statement/v0.1")


class AttestationError(ValueError):
    """The attestation file cannot be read, or does not name the scorecard."""


def read_attestation(data: bytes, scorecard_sha256: str, signature_checked: bool) -> Attestation:
    """What the attestation in `data` (one Sigstore bundle as JSON, or JSON Lines of them) says
    about the scorecard file whose sha256 is `scorecard_sha256`."""
    statements = [_statement(bundle) for bundle in _bundles(data)]
    for statement in statements:
        if scorecard_sha256 in _subject_digests(statement):
            return _claims(statement, scorecard_sha256, signature_checked)
    named = sorted({d[:12] for s in statements for d in _subject_digests(s)})
    raise AttestationError(
        f"the attestation does not name this scorecard (sha256 {scorecard_sha256[:12]}…); it "
        f"names {', '.join(named) or 'nothing'}"
    )


def _bundles(data: bytes) -> list[dict[str, Any]]:
    try:
        text = data.decode("utf-8").strip()
        if not text:
            raise AttestationError("the attestation file is empty")
        try:
            documents = [json.loads(text)]
        except json.JSONDecodeError:
            documents = [json.loads(line) for line in text.splitlines() if line.strip()]
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise AttestationError(f"the attestation is neither JSON nor JSON Lines: {exc}") from None
    if not all(isinstance(d, dict) for d in documents):
        raise AttestationError("the attestation holds something other than Sigstore bundles")
    return documents


def _statement(bundle: dict[str, Any]) -> dict[str, Any]:
    envelope = bundle.get("dsseEnvelope")
    if not isinstance(envelope, dict) or envelope.get("payloadType") != IN_TOTO_PAYLOAD:
        raise AttestationError(f"not a Sigstore bundle with an {IN_TOTO_PAYLOAD} DSSE envelope")
    try:
        statement = json.loads(base64.b64decode(str(envelope.get("payload", "")), validate=True))
    except (binascii.Error, ValueError) as exc:
        raise AttestationError(f"the envelope's payload is not base64 JSON: {exc}") from None
    if not isinstance(statement, dict) or statement.get("_type") not in STATEMENT_TYPES:
        raise AttestationError("the envelope's payload is not an in-toto statement")
    return statement


def _subject_digests(statement: dict[str, Any]) -> set[str]:
    subjects = statement.get("subject")
    if not isinstance(subjects, list):
        return set()
    return {
        str(s["digest"]["sha256"])
        for s in subjects
        if isinstance(s, dict) and isinstance(s.get("digest"), dict) and "sha256" in s["digest"]
    }


def _claims(statement: dict[str, Any], digest: str, signature_checked: bool) -> Attestation:
    predicate = _object(statement.get("predicate"))
    build = _object(predicate.get("buildDefinition"))
    workflow = _object(_object(build.get("externalParameters")).get("workflow"))
    dependencies = build.get("resolvedDependencies")
    first = _object(dependencies[0]) if isinstance(dependencies, list) and dependencies else {}
    details = _object(predicate.get("runDetails"))
    return Attestation(
        subject_sha256=digest,
        predicate_type=str(statement.get("predicateType", "")),
        repository=_text(workflow.get("repository")),
        workflow=_text(_object(details.get("builder")).get("id")),
        commit=_text(_object(first.get("digest")).get("gitCommit")),
        run=_text(_object(details.get("metadata")).get("invocationId")),
        signature_checked=signature_checked,
    )


def _object(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None
