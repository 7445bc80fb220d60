"""Sigstore bundles shaped as actions/attest-build-provenance writes them, for offline tests.

The signature is a placeholder: SpecSnap reads the statement offline and never checks it
(docs/leaderboard.md says why), so nothing here is signed.
"""

from __future__ import annotations

import base64
import json
from typing import Any

REPOSITORY = "https://github.com/someone/agent"
WORKFLOW = "https://github.com/specsnap/specsnap/.github/workflows/evaluate.yml@refs/tags/v1"


def statement(*digests: str) -> dict[str, Any]:
    return {
        "_type": "https://in-toto.io/Statement/v1",
        "subject": [{"name": "scorecard.json", "digest": {"sha256": d}} for d in digests],
        "predicateType": "https://slsa.dev/provenance/v1",
        "predicate": {
            "buildDefinition": {
                "buildType": "https://actions.github.io/buildtypes/workflow/v1",
                "externalParameters": {
                    "workflow": {
                        "ref": "refs/heads/main",
                        "repository": REPOSITORY,
                        "path": ".github/workflows/specsnap.yml",
                    }
                },
                "resolvedDependencies": [
                    {"uri": f"git+{REPOSITORY}@refs/heads/main", "digest": {"gitCommit": "e" * 40}}
                ],
            },
            "runDetails": {
                "builder": {"id": WORKFLOW},
                "metadata": {"invocationId": f"{REPOSITORY}/actions/runs/7/attempts/1"},
            },
        },
    }


def sigstore_bundle(*digests: str) -> dict[str, Any]:
    payload = base64.b64encode(json.dumps(statement(*digests)).encode()).decode()
    return {
        "mediaType": "application/vnd.dev.sigstore.bundle.v0.3+json",
        "verificationMaterial": {"certificate": {"rawBytes": "AA=="}},
        "dsseEnvelope": {
            "payload": payload,
            "payloadType": "application/vnd.in-toto+json",
            "signatures": [{"sig": "AA=="}],
        },
    }


def attestation_file(*digests: str) -> bytes:
    """One bundle, as JSON Lines (what the action's bundle-path holds)."""
    return (json.dumps(sigstore_bundle(*digests)) + "\n").encode()
