"""Running the real `specsnap` command in a subprocess."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

SPECSNAP = [sys.executable, "-m", "specsnap"]


def specsnap(
    *args: str, tiers: Path | None = None, timeout: float = 300
) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    if tiers is not None:
        env["SPECSNAP_TIERS_DIR"] = str(tiers)
    return subprocess.run(
        [*SPECSNAP, *args], capture_output=True, text=True, env=env, timeout=timeout
    )


def card(run_dir: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((run_dir / "scorecard.json").read_text())
    return data


def without_timings(value: Any) -> Any:
    """The scorecard minus timings (keys ending in _s or _ms) and its own digest."""
    if isinstance(value, dict):
        return {
            k: without_timings(v)
            for k, v in value.items()
            if not k.endswith(("_s", "_ms")) and k not in ("timings", "scorecard_sha256")
        }
    if isinstance(value, list):
        return [without_timings(v) for v in value]
    return value


def differing(a: Any, b: Any, path: str = "") -> set[str]:
    """The key paths where two JSON values differ."""
    if isinstance(a, dict) and isinstance(b, dict):
        keys = set(a) | set(b)
        return {p for k in keys for p in differing(a.get(k), b.get(k), f"{path}.{k}")}
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        pairs = enumerate(zip(a, b, strict=True))
        return {p for i, (x, y) in pairs for p in differing(x, y, f"{path}[{i}]")}
    return set() if a == b else {path}
