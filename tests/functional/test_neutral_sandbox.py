"""Nothing the agent can see names SpecSnap or the tier (issue: seeded tiers, neutral sandbox).

A `command` agent dumps what it can observe — its environment, its account, the repository's
history, config and hooks, every file of the sandbox — and the test looks for the benchmark's
name or the tier's in it. Only the `command` adapter's documented usage-file variable may name
SpecSnap (a program run by that adapter is SpecSnap-aware by definition).
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest

from tests.functional.cli import specsnap

pytestmark = pytest.mark.slow

DUMP = r"""
import os, pathlib, subprocess
out = []
out += [f"{k}={v}" for k, v in os.environ.items() if k != "SPECSNAP_USAGE_FILE"]
out.append(subprocess.run(["id"], capture_output=True, text=True).stdout)
for args in (["log", "--all", "--format=%an %ae %cn %ce %s %b"], ["config", "--list"]):
    out.append(subprocess.run(["git", *args], capture_output=True, text=True).stdout)
for path in pathlib.Path(".").rglob("*"):
    out.append(str(path))
    if path.is_file() and ".git/objects" not in str(path):
        out.append(path.read_text(errors="replace"))
pathlib.Path(os.environ["HOME"], "seen.txt").write_text("\n".join(out))
"""


def test_the_agent_sees_nothing_that_names_the_benchmark_or_the_tier() -> None:
    base = Path(tempfile.mkdtemp(prefix="work-", dir="/tmp"))
    base.chmod(0o711)
    script = base / "look.py"
    script.write_text(DUMP)
    script.chmod(0o644)
    run = base / "run"
    proc = specsnap(
        "run",
        "--tier",
        "2",
        "--agent",
        "command",
        "--agent-opt",
        f"cmd=python3 {script}",
        "--out",
        str(run),
    )
    assert proc.returncode in (0, 1), proc.stderr
    seen = (run / "sessions" / "1" / "home" / "seen.txt").read_text()
    assert "git" in seen and "Maintainers" in seen  # the dump really saw the history
    for word in ("specsnap", "tier-2", "tier 2", "benchmark", "hidden test"):
        assert word not in seen.lower(), [
            line for line in seen.splitlines() if word in line.lower()
        ]
