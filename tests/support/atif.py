"""Validating an ATIF trajectory: against the Harbor project's own models where its package is
installed (it needs Python >= 3.12: SPECSNAP_HARBOR_PYTHON names such an interpreter), and
always against the schema SpecSnap vendors from the RFC; and checking a session's trajectory
against what its scripted model server served."""

from __future__ import annotations

import json
import os
import subprocess
from importlib.resources import files
from pathlib import Path
from typing import Any

import jsonschema

from specsnap.trajectory.calls import VALUE_CHARS
from tests.support.fake_model import ScriptedServer, Turn

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


def scripted_calls(turns: list[Turn]) -> list[tuple[str, dict[str, Any]]]:
    """The tool calls a script makes, in order: (tool, arguments), each string argument as a
    trajectory keeps it, its first VALUE_CHARS characters (a whole patch applied with a shell
    command is longer)."""
    return [
        (b.name, {k: v[:VALUE_CHARS] if isinstance(v, str) else v for k, v in b.input.items()})
        for turn in turns
        for b in turn.blocks
        if b.type == "tool_use"
    ]


def assert_trajectory(path: Path, turns: list[Turn], server: ScriptedServer) -> dict[str, Any]:
    """The session's ATIF trajectory holds every tool call the server scripted, in order, and
    one step per answer the server sent, with that answer's tokens."""
    document: dict[str, Any] = json.loads(path.read_text())
    validate_atif(document)
    steps = document["steps"]
    called = [(c["function_name"], c["arguments"]) for s in steps for c in s.get("tool_calls", [])]
    assert called == scripted_calls(turns), called
    sent = sorted(u.output_tokens for u in server.served)
    assert sorted(s["metrics"]["completion_tokens"] for s in steps) == sent
    return document
