"""The README's first command as a newcomer runs it: `./scripts/demo.sh` as root on a fresh
Debian machine (a container of the Dockerfile's `system` stage: Python 3.11 and git, no SpecSnap
account), from a checkout in root's private home. It creates the accounts, installs SpecSnap
where those accounts can read it, and ends with a scorecard and exit 0.

The container shares the host's kernel, and so its uids: the host's own SpecSnap runs (this
suite's other workers) sweep their accounts with kill(-1), which would also reach a container
process of the same uid. The container's accounts therefore start at uid 63000
(SPECSNAP_FIRST_UID, as the Action's image does); a real fresh machine needs nothing of this.
pip installs SpecSnap's dependencies from the package index, over the host's network.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from tests.conftest import ROOT

pytestmark = [pytest.mark.docker, pytest.mark.slow, pytest.mark.xdist_group("docker")]

SCRIPT = """
set -u
id dev0 >/dev/null 2>&1 && { echo "dev0 exists before the demo"; exit 90; }
cp -a /checkout /root/specsnap && cd /root/specsnap
./scripts/demo.sh --seed 3
code=$?
echo "demo exit: $code"
cat /tmp/demo-*/run/scorecard.json > /results/scorecard.json
exit $code
"""


def test_the_demo_as_root_on_a_fresh_machine_sets_up_and_ends_with_a_scorecard(
    fresh_machine: str, tmp_path: Path
) -> None:
    checkout = tmp_path / "checkout"
    subprocess.run(["git", "clone", "-q", "--no-hardlinks", str(ROOT), str(checkout)], check=True)
    results = tmp_path / "results"
    results.mkdir()
    done = subprocess.run(
        ["docker", "run", "--rm", "--network", "host", "-e", "SPECSNAP_FIRST_UID=63000",
         "-v", f"{checkout}:/checkout:ro", "-v", f"{results}:/results",
         fresh_machine, "bash", "-c", SCRIPT],
        capture_output=True, text=True, check=False, timeout=1200,
    )  # fmt: skip
    log = done.stdout + done.stderr
    assert done.returncode == 0, log[-4000:]
    assert "demo exit: 0" in done.stdout
    assert "SpecSnap goes into /opt/specsnap-demo/venv" in done.stderr
    card = json.loads((results / "scorecard.json").read_text())
    assert (card["tier_id"], card["agent"]["name"], card["seed"]) == ("tier-2", "notetaker", 3)
    assert card["scores"]["net_retention"] == 1.0
    assert [s["exit"]["status"] for s in card["sessions"]] == ["cutoff", "completed"]
    assert card["gate"]["protocol_breaches"] == []
