"""Writing a session's trajectory.json (beside session.json, in the run's root-only records)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from specsnap.trajectory.atif import atif_document
from specsnap.trajectory.steps import MeteredStep

FILE = "trajectory.json"


def write_trajectory(
    records: Path, index: int, agent: str, steps: Sequence[MeteredStep], dropped: int
) -> None:
    """Write sessions/N/trajectory.json from the meter's steps of session `index`."""
    document = atif_document(f"session-{index}", agent, steps, dropped)
    (records / FILE).write_text(json.dumps(document, indent=2) + "\n")
