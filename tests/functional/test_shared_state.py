"""Trust v3, class 4: nothing outlives a session or a grading outside the sandbox.

An agent that leaves its sprint notes in every directory other accounts may write to (found at
start-up: /tmp, /var/tmp, /dev/shm, /run/lock here) and in a System V shared memory segment
finds none of them in its next session. Product code that does the same while it is graded
finds nothing of an earlier subject's — in the same grading or the next one — because each
subject runs in its own IPC and mount namespaces with a private tmpfs over each of them.
"""

from __future__ import annotations

import contextlib
import ctypes
import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest

from specsnap.accounts.shared_state import world_writable_dirs
from tests.conftest import FIXTURE_TIERS
from tests.functional.cli import SPECSNAP, card, specsnap
from tests.functional.test_judge_attacks import play

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(os.geteuid() != 0, reason="official mode: SpecSnap runs as root"),
]

KEY = 0x5EC5  # the segment's key: a value both sessions know
#: The notes' file name and the marker of a process left running, one per test (they run at once).
NAME = "carried-notes-{}"

CARRY = r"""
import ctypes, os, subprocess, sys
from pathlib import Path
DIRS, NAME = {dirs!r}, {name!r}
libc = ctypes.CDLL(None, use_errno=True)
def found():
    seen = [d for d in DIRS if os.path.exists(os.path.join(d, NAME))]
    if libc.shmget({key}, 0, 0) >= 0:
        seen.append("shm")
    return seen
def lingering():
    seen = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            if NAME.encode() in Path(f"/proc/{{pid}}/cmdline").read_bytes():
                seen.append(pid)
        except OSError:
            pass
    return seen
def leave():
    for d in DIRS:
        try:
            Path(d, NAME).write_text("the sprint, remembered")
        except OSError:
            pass
    libc.shmget({key}, 4096, 0o1000 | 0o666)  # IPC_CREAT
    subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)", NAME],
                     start_new_session=True, stdin=subprocess.DEVNULL,
                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
"""

AGENT = (
    CARRY
    + r"""
prompt = Path(sys.argv[1]).read_text()
if not prompt.startswith("Continue"):
    leave()
    assert found() and lingering(), "nothing could be left"  # the attack was really made
    Path("units/convert.py").write_text(Path("units/convert.py").read_text() + "\n")
else:
    Path("FOUND.json").write_text(__import__("json").dumps(found() + lingering()))
    os.system("git add FOUND.json && git commit -qm found")
"""
)


def test_what_a_session_leaves_outside_the_sandbox_never_reaches_the_next(
    tmp_path: Path,
) -> None:
    dirs = list(world_writable_dirs())
    assert "/tmp" in dirs
    script = tmp_path / "agent.py"
    script.write_text(AGENT.format(dirs=dirs, key=KEY, name=NAME.format("session")))
    script.chmod(0o644)
    out = tmp_path / "run"
    args = ["run", "--tier", "90", "--agent", "command", "--out", str(out)]
    args += ["--agent-opt", f"cmd=python3 {script} {{prompt_file}}"]
    proc = specsnap(*args, tiers=FIXTURE_TIERS)
    assert proc.returncode in (0, 1), proc.stderr
    found = json.loads((out / "sandbox" / "FOUND.json").read_text())
    assert found == []
    assert card(out)["gate"]["protocol_breaches"] == []


PRODUCT = (
    CARRY
    + r"""
if found():  # state of an earlier subject: pounds and ounces stop working
    FACTORS.pop("lb", None)
    FACTORS.pop("oz", None)
leave()
"""
)


def leftovers(name: str, key: int) -> list[str]:
    """What subjects left outside their workspaces: files called `name` in any world-writable
    directory, the segment `key`, processes marked `name` (seen as root, after the grading)."""
    left = [d for d in world_writable_dirs() if os.path.lexists(os.path.join(d, name))]
    if ctypes.CDLL(None).shmget(key, 0, 0) >= 0:
        left.append("shm")
    for pid in filter(str.isdigit, os.listdir("/proc")):
        with contextlib.suppress(OSError):
            if name.encode() in Path(f"/proc/{pid}/cmdline").read_bytes():
                left.append(f"process {pid}")
    return left


def regrade(run: Path, *prefix: str) -> dict[str, Any]:
    proc = subprocess.run(
        [*prefix, *SPECSNAP, "grade", str(run)],
        capture_output=True,
        text=True,
        env={**os.environ, "SPECSNAP_TIERS_DIR": str(FIXTURE_TIERS)},
        check=False,
    )
    assert proc.returncode in (0, 1), proc.stderr
    return card(run)


def test_two_gradings_in_a_row_share_nothing(tmp_path: Path) -> None:
    name = NAME.format("subject")
    code = PRODUCT.format(dirs=list(world_writable_dirs()), key=KEY + 1, name=name)
    data = play(tmp_path, f"append('units/convert.py', {code!r})")
    passed = {r["id"]: r["passed"] for r in data["requirements"]}
    assert passed["UNIT-1"] is True  # every subject left state; none saw another's
    assert data["grading"]["shared_state"] == "private namespaces"
    assert leftovers(name, KEY + 1) == []
    again = regrade(tmp_path / "run")
    assert {r["id"]: r["passed"] for r in again["requirements"]}["UNIT-1"] is True
    assert leftovers(name, KEY + 1) == []


def test_without_namespaces_each_subject_account_sweeps_what_it_left(tmp_path: Path) -> None:
    """As in a container that may not make namespaces (no CAP_SYS_ADMIN): subjects share /tmp
    and IPC while they run, and what each left is gone when the grading ends; the scorecard
    names the weaker guarantee."""
    name = NAME.format("container")
    code = PRODUCT.format(dirs=list(world_writable_dirs()), key=KEY + 2, name=name)
    play(tmp_path, f"append('units/convert.py', {code!r})")
    without = regrade(tmp_path / "run", "setpriv", "--bounding-set", "-sys_admin", "--")
    assert without["grading"]["shared_state"] == "owner sweep"
    assert "shared state: owner sweep" in (tmp_path / "run" / "scorecard.md").read_text()
    assert without["grading"]["subjects"] > 0  # the product code ran, and left its state
    assert leftovers(name, KEY + 2) == []
