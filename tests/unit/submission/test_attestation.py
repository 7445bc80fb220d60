"""The scorecard's attestation, read offline: it must name the scorecard's bytes."""

from __future__ import annotations

import json

import pytest

from specsnap.submission.attestation import AttestationError, read_attestation
from tests.support.attestations import (
    REPOSITORY,
    WORKFLOW,
    attestation_file,
    sigstore_bundle,
)

DIGEST = "a" * 64
OTHER = "f" * 64


def test_the_claims_of_a_statement_that_names_the_scorecard() -> None:
    found = read_attestation(attestation_file(OTHER, DIGEST), DIGEST, signature_checked=False)
    assert found.subject_sha256 == DIGEST
    assert found.predicate_type == "https://slsa.dev/provenance/v1"
    assert (found.repository, found.workflow, found.commit) == (REPOSITORY, WORKFLOW, "e" * 40)
    assert found.run == f"{REPOSITORY}/actions/runs/7/attempts/1"
    assert found.signature_checked is False


def test_json_or_json_lines_of_several_bundles() -> None:
    lines = json.dumps(sigstore_bundle(OTHER)) + "\n" + json.dumps(sigstore_bundle(DIGEST))
    assert read_attestation(lines.encode(), DIGEST, True).signature_checked is True
    assert read_attestation(json.dumps(sigstore_bundle(DIGEST)).encode(), DIGEST, True)


def test_an_attestation_of_another_scorecard_is_refused_naming_what_it_names() -> None:
    with pytest.raises(AttestationError, match=r"does not name this scorecard.*names ffffffffffff"):
        read_attestation(attestation_file(OTHER), DIGEST, False)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"", "empty"),
        (b"not json", "neither JSON nor JSON Lines"),
        (b"[1, 2]", "something other than Sigstore bundles"),
        (b'{"dsseEnvelope": {"payloadType": "text/plain"}}', "DSSE envelope"),
        (
            b'{"dsseEnvelope": {"payloadType": "application/vnd.in-toto+json", "payload": "!!"}}',
            "not base64 JSON",
        ),
    ],
)
def test_what_is_not_an_attestation(data: bytes, message: str) -> None:
    with pytest.raises(AttestationError, match=message):
        read_attestation(data, DIGEST, False)
