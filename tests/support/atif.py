"""Validating an ATIF trajectory: against the Harbor project's own models where its package is
installed (it needs Python >= 3.12: SPECSNAP_HARBOR_PYTHON names such an interpreter), and
always against the schema SpecSnap vendors from the RFC."""

from __future__ import annotations

import json
import os
import subprocess
from importlib.resources import files
from typing import Any

import jsonschema

SCHEMA = json.loads(files("specsnap.schemas").joinpath("atif-v1.4.schema.json").read_text())
HARBOR_CHECK = "import json,sys; from harbor.models.trajectories import Trajectory; " \
    "Trajectory.model_validate(json.load(sys.stdin))"  # fmt: skip


def validate_atif(document: dict[str, Any]) -> None:
    """Raise if `document` is not a valid ATIF trajectory."""
    jsonschema.validate(document, SCHEMA)
    python = os.environ.get("SPECSNAP_HARBOR_PYTHON")
    if python:
        checked = subprocess.run(
            [python, "-c", HARBOR_CHECK], input=json.dumps(document), text=True,
            capture_output=True, timeout=60,
        )  # fmt: skip
        assert checked.returncode == 0, checked.stderr[-3000:]
