"""Honest behaviours real agents show, played through `specsnap run --agent command`: none is
voided, and the same behaviour gives the same scorecard every time (docs/protocol.md, Cutoff:
what survives a cutoff). The attack tests beside them (test_escape_*.py) keep the cheats caught.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import textwrap
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import soak_size
from tests.functional.cli import card, specsnap, without_timings
from tests.support.escapes import FIRST, TIERS, agent_python, play, reference_tree

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(os.geteuid() != 0, reason="containment by account needs root"),
]

#: Session 1 writes the whole reference solution at once, as `git apply`, Codex's apply_patch,
#: aider's edit blocks or parallel tool calls do: no pause between the files.
MULTI_FILE_EDIT = """
def sprint():
    write_all(pause=0)
    git("add", "-A")
    git("commit", "-qm", "sprint")
"""


def _spin(stop: Any) -> None:
    while not stop.is_set():
        pass


@contextmanager
def every_core_busy() -> Iterator[None]:
    """A load generator: one spinning process per core, for the block."""
    stop = multiprocessing.Event()
    workers = [
        multiprocessing.Process(target=_spin, args=(stop,)) for _ in range(os.cpu_count() or 2)
    ]
    for worker in workers:
        worker.start()
    try:
        yield
    finally:
        stop.set()
        for worker in workers:
            worker.join(timeout=10)
            if worker.is_alive():
                worker.kill()


def test_a_multi_file_edit_in_one_call_gives_identical_scorecards_under_load(
    tmp_path: Path,
) -> None:
    """The cutoff keeps the file that fired (the first written) and cuts away the rest, so the
    continuation, which commits what it finds, always commits exactly that one file. Twenty
    repeats in the soak run; in the default run six, and more (up to twenty) until one run has
    seen the burst land before the freeze, the case that has something to cut away."""
    cards, cut_away = [], []
    with every_core_busy():
        for repeat in range(20):
            if repeat >= soak_size(20, 6) and max(cut_away) >= 1:
                break
            outcome = play(tmp_path, MULTI_FILE_EDIT, name=f"run{repeat}")
            assert outcome.breaches() == [], (repeat, outcome.card["gate"]["protocol_breaches"])
            assert outcome.passed == ["CAT-2"], (repeat, outcome.passed)
            cutoff = outcome.cutoff(1)
            assert cutoff["kept"] == FIRST, cutoff
            cut_away.append(len(cutoff["cut_away"]))
            cards.append(json.dumps(without_timings(_scored(outcome.card)), sort_keys=True))
    assert len(set(cards)) == 1, "the same behaviour gave different scorecards"
    assert max(cut_away) >= 1  # the burst was written before the freeze, and was cut away


#: What real agents do around their edits, in one session 1: a background test watcher that
#: re-reads and compiles the sources in a loop (ended by the cutoff, never asked to stop), notes
#: in odd places (no suffix, a dot directory, a package directory, the home, a .txt in docs/),
#: scratch files made and deleted again, and the sprint's files written by two processes at
#: once (parallel tool calls). Session 2 redoes the whole sprint and commits: whichever file
#: the cutoff kept, the graded commit is the same.
HABITS = r'''
import multiprocessing

NOTES = ["NOTES", ".agent/plan.md", "catalog/TODO.txt", "docs/agent-notes.txt"]
WATCHER = """
import pathlib, time
root = pathlib.Path(".")
while True:
    for path in sorted(root.rglob("*.py")):
        try:
            compile(path.read_bytes(), str(path), "exec")
        except (OSError, SyntaxError, ValueError):
            pass
    pathlib.Path(".watch").mkdir(exist_ok=True)
    pathlib.Path(".watch/status").write_text(str(time.monotonic()))
    time.sleep(0.02)
"""


def write_some(paths):
    for rel in paths:
        Path(rel).parent.mkdir(parents=True, exist_ok=True)
        Path(rel).write_bytes(final(rel))


def sprint():
    subprocess.Popen([PY, "-c", WATCHER], stdin=subprocess.DEVNULL,
                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for rel in NOTES:
        Path(rel).parent.mkdir(parents=True, exist_ok=True)
        Path(rel).write_text("remember: " + " ".join(ORDER) + "\n")
    Path(os.environ["HOME"], "notes.md").write_text("where I am\n")
    Path("scratch.txt").write_text("try this\n")
    Path(".scratch").mkdir()
    Path(".scratch/out.log").write_text("output\n")
    time.sleep(0.1)
    Path("scratch.txt").unlink()
    Path(".scratch/out.log").unlink()
    Path(".scratch").rmdir()
    halves = [ORDER[0::2], ORDER[1::2]]
    writers = [multiprocessing.Process(target=write_some, args=(half,)) for half in halves]
    for writer in writers:
        writer.start()
    for writer in writers:
        writer.join()
    time.sleep(30)  # the cutoff ends it


def continuation():
    write_all(pause=0)
    git("add", "-A")
    git("commit", "-qm", "sprint, again")
'''


def test_real_agent_habits_are_never_voided_and_always_score_the_same(tmp_path: Path) -> None:
    cards, sprint_files = [], reference_tree()[1]
    with every_core_busy():  # a slow machine too
        for repeat in range(5):
            outcome = play(tmp_path, HABITS, name=f"run{repeat}")
            assert outcome.breaches() == [], (repeat, outcome.card["gate"]["protocol_breaches"])
            assert outcome.card["gate"]["holds"], (repeat, outcome.card["gate"])
            assert outcome.card["scores"]["net_retention"] == 1.0, (repeat, outcome.passed)
            cut = outcome.cutoff(1)
            assert cut["reason"] == "source-edit" and cut["kept"] in sprint_files, cut
            assert outcome.alive() == set()  # the watcher ended with the session
            cards.append(json.dumps(without_timings(_scored(outcome.card)), sort_keys=True))
    assert len(set(cards)) == 1, "the same behaviour gave different scorecards"


def _scored(document: dict[str, Any]) -> dict[str, Any]:
    """What a scorecard decides (the receipt's digests name each run's own directory)."""
    return {key: document[key] for key in ("scores", "requirements", "gate", "official", "stage")}


AGENT = """
import subprocess, sys
from pathlib import Path

PROMPT = Path(sys.argv[1]).read_text()
MARKS = Path({marks!r})
INDEX = len(list(MARKS.iterdir())) + 1


def git(*args):
    done = subprocess.run(["git", *args], capture_output=True, text=True)
    return done.stdout + done.stderr


{body}
"""


def run_command_agent(
    tmp_path: Path, tier: str, body: str, seed: int = 1
) -> tuple[dict[str, Any], Path, Path]:
    tmp_path.chmod(0o711)  # the agent's account reaches its script and its marks
    base = tmp_path / "run"
    base.mkdir(mode=0o711)
    marks = base / "marks"
    marks.mkdir()
    marks.chmod(0o777)
    script = base / "agent.py"
    script.write_text(AGENT.format(marks=str(marks), body=textwrap.dedent(body)))
    script.chmod(0o644)
    out = base / "out"
    proc = specsnap(
        "run", "--tier", str(TIERS / tier), "--seed", str(seed), "--agent", "command",
        "--agent-opt", f"cmd={agent_python()} {script} {{prompt_file}}", "--out", str(out),
    )  # fmt: skip
    assert proc.returncode in (0, 1), proc.stdout + proc.stderr
    return card(out), out, marks


def test_committing_earlier_work_first_in_every_tier_4_session_is_no_breach(
    tmp_path: Path,
) -> None:
    """Sessions 2 and 3 start with `git add -A && git commit` of what the cut-off session left
    (the commit is refused while armed, and cuts the session off); the last one commits too."""
    body = """
    (MARKS / str(INDEX)).write_text("")
    if INDEX == 1:
        Path("scheduling_notes.py").write_text("# where I was\\n")
    else:
        git("add", "-A")
        (MARKS / f"{INDEX}.commit").write_text(git("commit", "-qm", f"work of session {INDEX}"))
    """
    graded, out, marks = run_command_agent(tmp_path, "tier-4", body)
    assert sorted(p.name for p in marks.iterdir() if p.suffix == "") == ["1", "2", "3", "4"]
    assert graded["gate"]["protocol_breaches"] == [], graded["gate"]["protocol_breaches"]
    assert graded["gate"]["holds"], graded["gate"]
    reasons = [json.loads((out / "sessions" / str(n) / "cutoff.json").read_text()) for n in (2, 3)]
    assert [r["reason"] for r in reasons] == ["commit-attempt", "commit-attempt"]


def test_an_empty_commit_never_releases_tier_1s_product_note(tmp_path: Path) -> None:
    body = """
    if not PROMPT.startswith("Continue from"):
        (MARKS / "empty.txt").write_text(git("commit", "--allow-empty", "-m", "nothing yet"))
        Path("NOTES.md").write_text("unrelated\\n")
        git("add", "NOTES.md")
        (MARKS / "unrelated.txt").write_text(git("commit", "-m", "an unrelated commit"))
    """
    graded, out, marks = run_command_agent(tmp_path, "tier-1", body)
    note = (TIERS / "tier-1" / "prompts" / "product_note.md").read_text().strip().splitlines()[0]
    heard = (marks / "empty.txt").read_text() + (marks / "unrelated.txt").read_text()
    assert note.strip() and note not in heard
    cutoff = json.loads((out / "sessions" / "1" / "cutoff.json").read_text())
    assert cutoff["product_note_delivered"] is False and cutoff["armed"] is False
    assert list(cutoff["baseline_checks"].values()) == [False, False]
    assert graded["gate"]["protocol_breaches"] == []
