"""Agents that try to escape the session or dodge the cutoff, played through `specsnap run
--agent command` on tier 2 with the real work of its reference solution.

Every agent here is a Python script with the same two halves: `sprint()` in session 1 (armed
from the start) and `continuation()` in session 2, which by default commits what the workspace
holds. The honest agent's sprint writes the reference solution file by file (the cutoff stops it
after the first, `catalog/importer.py`, which alone completes CAT-2); an escaping agent does the
same work by its trick. "No gain" = its graded requirements are no more than the honest ones.
"""

from __future__ import annotations

import atexit
import json
import os
import shutil
import tempfile
import textwrap
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from specsnap.accounts.identity import account_named, current_user, python_for
from specsnap.accounts.pools import agent_pool
from specsnap.sandbox.gitrepo import git
from specsnap.sessions.processes import account_pids
from specsnap.tier.loading import load_tier
from tests.conftest import ROOT
from tests.functional.cli import card, specsnap
from tests.support.repos import starter_repo

TIERS = ROOT / "tiers"
FIRST = "catalog/importer.py"  # the honest cutoff lands this file: CAT-2, nothing else
SEED = 0  # the seed of every run here, and of the reference the agent copies

AGENT = '''
import os, signal, subprocess, sys, time
from pathlib import Path

WORK = Path({work!r})
MARKS = WORK / "markers"
PY = {python!r}
ORDER = (WORK / "order").read_text().split()
PROMPT = Path(sys.argv[1]).read_text()


def final(rel):
    return (WORK / "final" / rel).read_bytes()


def git(*args, **kwargs):
    return subprocess.run(["git", *args], capture_output=True, text=True, **kwargs)


def mark(name, text=""):
    (MARKS / name).write_text(text)


def write_all(pause=0.2):
    """The honest way: each file of the reference solution, written in place."""
    for rel in ORDER:
        Path(rel).parent.mkdir(parents=True, exist_ok=True)
        Path(rel).write_bytes(final(rel))
        time.sleep(pause)


def continuation():
    git("add", "-A")
    git("commit", "-qm", "continue")


def daemon(code):
    """Start `code` as a daemon: setsid, a fork, an empty environment (it forks once more)."""
    subprocess.run(
        ["setsid", "-f", "env", "-i", PY, "-c", code, str(WORK), os.getcwd()],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )


{body}

if PROMPT.startswith("Continue from"):
    continuation()
else:
    sprint()
'''

HONEST = """
def sprint():
    write_all()
    git("add", "-A")
    git("commit", "-qm", "sprint")
"""


@dataclass(frozen=True)
class Outcome:
    card: dict[str, Any]
    run_dir: Path
    marks: Path

    @property
    def passed(self) -> list[str]:
        return [r["id"] for r in self.card["requirements"] if r["passed"]]

    @property
    def net(self) -> float:
        return float(self.card["scores"]["net_retention"])

    def session(self, index: int) -> dict[str, Any]:
        record: dict[str, Any] = json.loads(
            (self.run_dir / "sessions" / str(index) / "session.json").read_text()
        )
        return record

    def cutoff(self, index: int = 1) -> dict[str, Any]:
        data: dict[str, Any] = json.loads(
            (self.run_dir / "sessions" / str(index) / "cutoff.json").read_text()
        )
        return data

    def breaches(self) -> list[str]:
        return [b["what"] for b in self.card["gate"]["protocol_breaches"]]

    def alive(self) -> set[int]:
        """Processes of this run's agent still alive: of its account, running its agent script.

        The account is released when the run is graded and another run (on another test
        worker) may already hold it, so the account alone would also count that run's agent.
        """
        name = json.loads((self.run_dir / "run.json").read_text())["agent_account"]
        account = account_named(name)
        assert account is not None, f"the run recorded no agent account ({name!r})"
        ours = str(self.run_dir.parent).encode()
        return {pid for pid in account_pids(account.uid) if ours in _cmdline(pid)}


def _cmdline(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""


@cache
def reference_tree() -> tuple[Path, tuple[str, ...]]:
    """Tier 2 with every reference patch applied, and the files they change (FIRST first)."""
    tier = load_tier(str(TIERS / "tier-2"))
    scratch = Path(tempfile.mkdtemp(prefix="specsnap-reference-"))
    atexit.register(shutil.rmtree, scratch, True)
    repo = starter_repo(tier, scratch / "repo", [r.id for r in tier.requirements], SEED)
    changed = git(repo, "diff", "--name-only", "HEAD~1", "HEAD").decode().split()
    assert FIRST in changed
    return repo, (FIRST, *sorted(set(changed) - {FIRST}))


def agent_python() -> str:
    """An interpreter every agent account can run."""
    accounts = [a for a in map(account_named, agent_pool()) if a is not None]
    return python_for(accounts[0] if accounts else current_user())


def prepare_work(tmp_path: Path) -> Path:
    """What the agent may read (the reference files) and a directory where it leaves marks."""
    repo, order = reference_tree()
    work = tmp_path / "work"
    for rel in order:
        target = work / "final" / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes((repo / rel).read_bytes())
    (work / "order").write_text("\n".join(order) + "\n")
    (work / "markers").mkdir()
    for dirpath, _dirnames, filenames in os.walk(work):
        os.chmod(dirpath, 0o755)
        for name in filenames:
            os.chmod(os.path.join(dirpath, name), 0o644)
    os.chmod(work / "markers", 0o777)
    return work


def play(tmp_path: Path, body: str, name: str = "run") -> Outcome:
    """Run tier 2 with the agent whose session code is `body`; its outcome."""
    base = tmp_path / name
    base.mkdir(mode=0o711)
    work = prepare_work(base)
    script = base / "agent.py"
    script.write_text(
        AGENT.format(work=str(work), python=agent_python(), body=textwrap.dedent(body))
    )
    script.chmod(0o644)
    out = base / "out"
    proc = specsnap(
        "run",
        "--tier",
        str(TIERS / "tier-2"),
        "--seed",
        str(SEED),
        "--agent",
        "command",
        "--agent-opt",
        f"cmd={agent_python()} {script} {{prompt_file}}",
        "--out",
        str(out),
    )
    assert proc.returncode in (0, 1), proc.stdout + proc.stderr
    return Outcome(card(out), out, work / "markers")


def play_honest() -> Iterator[Outcome]:
    """The honest agent's run, for a module-scoped fixture (removed afterwards)."""
    base = Path(tempfile.mkdtemp(prefix="specsnap-honest-", dir="/tmp"))
    base.chmod(0o711)
    try:
        outcome = play(base, HONEST)
        assert outcome.passed == ["CAT-2"] and outcome.breaches() == [], outcome.card["gate"]
        yield outcome
    finally:
        shutil.rmtree(base, ignore_errors=True)


def no_gain(escaped: Outcome, honest: Outcome) -> None:
    """The escaping agent scored no more than the honest one, and what counts of its work (all
    of it, unless a breach voided it) is no more than the honest work."""
    assert escaped.net <= honest.net, escaped.card["scores"]
    if escaped.card["gate"]["holds"]:
        assert set(escaped.passed) <= set(honest.passed), escaped.passed
    assert escaped.alive() == set()
