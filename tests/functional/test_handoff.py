"""Handoff modes (`--handoff fresh|resume|compact`) with a real agent CLI, offline, through whole
SpecSnap runs of tier-2 (seed 1) against its scripted model server: the same scripted model
under each mode, whose edits are the notetaker control's solution of that seed.

- session 1 is cut off at its first edit; its answer carries a marker;
- in `fresh` nothing of session 1 reaches session 2's requests; in `resume` session 2 resumes
  session 1's conversation from the CLI's own store (SpecSnap moved only that store), so the
  marker is in what session 2 sends; in `compact` the CLI's compaction request carries it, is
  served, and every request after it carries the summary instead;
- every session's tokens are what the server served (the resumed requests go through the meter),
  and every grade is the one `specsnap verify --run` rebuilds;
- the scorecards differ only where the handoff differs (and in the scripted server's address),
  each labelled with its mode, and `specsnap aggregate` keeps them apart.

The tier is root-only, as in the Action's container, so nothing but the scripted server keeps a
scorecard from being official: its token counts are the server's, which SpecSnap cannot check,
so each card says so and the ledger refuses it (the leaderboard's tracks per mode are tested on
ledger entries, tests/unit/leaderboard). How each CLI is played, the root-only tier and the
control's solution: tests/support/tier2_play.py; every adapter's `fresh` with a mid-stream
cutoff: tests/functional/test_agent_clis.py and test_more_agent_clis.py.
"""

from __future__ import annotations

import json
import re
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from specsnap.agents.base import adapter_traits, get_agent
from tests.functional.cli import card, differing, without_timings
from tests.support import fake_anthropic, fake_gemini
from tests.support.agent_cli import cli_binary
from tests.support.fake_model import Block, ScriptedServer, Turn, Usage, text
from tests.support.tier2_play import (
    PLAYS,
    REAL_KEYS,
    SEED,
    SHELL,
    Solution,
    aider_whole,
    counts,
    finish,
    heredoc,
    play_run,
    specsnap,
)

pytestmark = [pytest.mark.slow, pytest.mark.agents]

MARKER = "Plan-7f3a: pricing first, then the rest of the sprint."
#: The modes each CLI's adapter supports (docs/agents.md). Every mode of Claude Code is compared
#: with `fresh`; the others' `resume` is run alone, to keep the suite fast.
MODES = {
    "claude": ("fresh", "resume", "compact"),
    "codex": ("fresh", "resume"),
    "aider": ("fresh", "resume"),
    "gemini": ("fresh", "resume"),
    "opencode": ("fresh", "resume"),
    "qwen": ("fresh", "resume", "compact"),
    "copilot": ("fresh", "resume", "compact"),
}
#: The CLIs that say the marker in a turn of its own, before their edit.
#: Where the CLIs that say the marker a turn before their edit keep their session (in HOME).
LOOK_FIRST = {
    "claude": ".claude/projects",
    "opencode": ".local/share/opencode",
    "qwen": ".qwen",
    "copilot": ".copilot/session-state",
}
COMPARED = "claude"
SUMMARY = "Summary-c41d: pricing done, the rest of the sprint remains."
#: The compaction answer, in the form each CLI's compaction prompt asks for.
COMPACTED = {
    "claude": f"<analysis>.</analysis><summary>{SUMMARY}</summary>",
    "qwen": f"<analysis>.</analysis><state_snapshot>{SUMMARY}</state_snapshot>",
    "copilot": f"<overview>{SUMMARY}</overview><checkpoint_title>Pricing done</checkpoint_title>",
}


def run_in_mode(
    name: str, mode: str, tmp: Path, tiers: Path, solved: Solution
) -> tuple[Path, ScriptedServer, ScriptedServer]:
    """A whole tier-2 run by playbook `name` under `mode`; the run and both sessions' servers."""
    play = PLAYS[name]
    run = tmp / f"run-{mode}"
    key = REAL_KEYS[play.api]
    first = play.server(session_one(name, run / "sandbox", solved), api_key=key)
    compaction = [Turn((text(COMPACTED.get(name, "")),), Usage(600, 40))]
    second = play.server(
        [*(compaction if mode == "compact" else []), *finish(name, solved)],
        api_key=key,
    )
    options = play.agent_opts(cli_binary(play.cli))
    with first.start(), second.start():
        prepare = ("--tier", "2", "--seed", SEED, "--handoff", mode)
        graded = play_run(play, run, (first, second), key, options, tiers, *prepare)
        assert graded.returncode in (0, 1) and (run / "scorecard.json").is_file(), graded.stderr
    first.stop()
    second.stop()
    return run, first, second


def session_one(name: str, sandbox: Path, solved: Solution) -> list[Turn]:
    """Session 1: the marker, then one edit with the playbook's own tool; the cutoff fires on it.
    Aider edits only files in its chat: the first reply names the file, the second edits it.
    Claude Code, opencode, Qwen Code and Copilot CLI say the marker one turn before their edit
    and wait until their store holds it: what the cut-off session's store holds otherwise
    depends on how soon after the edit it was frozen (a loaded machine lost it)."""
    if name == "aider":
        names = Turn((text(f"{MARKER} I need to change {solved.first}."),), Usage(700, 20))
        whole = aider_whole({solved.first: solved.first_content})
        return [names, Turn((text(whole),), Usage(1200, 80))]
    if name in LOOK_FIRST:  # the marker in a turn of its own, then a wait (20 s at most) until
        # the CLI's store holds it: Qwen Code, for one, writes it in the background, and the
        # session may be frozen right after the edit
        stored = f'grep -rqsF "{MARKER}" "$HOME/{LOOK_FIRST[name]}"'
        wait = f"for i in $(seq 200); do {stored} && break; sleep 0.1; done; true"
        look = Turn((text(MARKER), SHELL[name](wait)), Usage(700, 20))
        return [look, Turn((first_edit(name, sandbox, solved),), Usage(1200, 80))]
    return [Turn((text(MARKER), first_edit(name, sandbox, solved)), Usage(1200, 80))]


def first_edit(name: str, sandbox: Path, solved: Solution) -> Block:
    """The first file, solved, with the CLI's file tool, or its shell's where that is simpler."""
    path, content = solved.first, solved.first_content
    if name in ("codex", "opencode", "qwen", "copilot"):
        return SHELL[name](heredoc(path, content))
    if name == "gemini":
        return fake_gemini.write_file(str(sandbox / path), content)
    return fake_anthropic.write_file(str(sandbox / path), content)


def sent(server: ScriptedServer, turns: range = range(1000)) -> str:
    """Everything the CLI sent in its conversation requests for `turns` (side requests left out)."""
    return "\n".join(json.dumps(r.body) for r in server.requests if r.turn in turns)


def at_one_address(document: Any) -> Any:
    """The card with every scripted server's address (a port of 127.0.0.1 of its own per run)
    written as one."""
    return json.loads(
        re.sub(r"http://127\.0\.0\.1:[0-9]+", "http://127.0.0.1:PORT", json.dumps(document))
    )


def checked_runs(
    name: str, modes: tuple[str, ...], tmp: Path, tiers: Path, solved: Solution
) -> dict[str, Any]:
    """Runs of `name` in `modes`, side by side (each holds an account of its own), with what
    every mode shares checked: the cutoff at the first edit, tokens as served, the label."""
    with ThreadPoolExecutor(len(modes)) as pool:
        futures = {mode: pool.submit(run_in_mode, name, mode, tmp, tiers, solved) for mode in modes}
        runs = {mode: future.result() for mode, future in futures.items()}
    for mode, (run, first, second) in runs.items():
        data = card(run)
        s1, s2 = data["sessions"]
        assert s1["cutoff"]["fired"] and s1["cutoff"]["file"] == solved.first, s1
        assert first.turns_served >= 1 and MARKER not in sent(first, range(1))  # its answer
        assert s1["tokens"] == {**counts(first.total_usage()), "source": "metered"}
        assert s2["tokens"] == {**counts(second.total_usage()), "source": "metered"}
        assert data["handoff"] == data["receipt"]["handoff"] == mode
        assert second.requests and not second.rejected
        # Official but for the scripted server, whose counts SpecSnap cannot check.
        assert not [r for r in data["unofficial_reasons"] if "the meter forwarded" not in r]
        for session, server in zip(data["sessions"], (first, second), strict=True):
            assert session["meter"]["upstreams"][PLAYS[name].api].startswith(server.base_url)
        failed = [r["id"] for r in data["requirements"] if not r["passed"]]
        logs = [(f.name, f.read_text()[-2000:]) for f in (run / "sessions" / "2").glob("*.log")]
        assert data["scores"]["raw_retention"] == 1.0, (failed, logs)
        # The grade, cross-checked: `verify --run` regrades the final commit, rebuilds the card.
        scorecard = str(run / "scorecard.json")
        rebuilt = specsnap("verify", scorecard, "--run", str(run), settings={}, tiers=tiers)
        assert rebuilt.returncode == 0 and "rebuild" in rebuilt.stdout, rebuilt.stdout
    return runs


@pytest.mark.parametrize("name", [n for n in MODES if n != COMPARED])
def test_a_resumed_session_hears_the_cut_off_conversation(
    name: str, tmp_path: Path, tiers: Path, solution: Solution
) -> None:
    assert adapter_traits(get_agent(PLAYS[name].agent)).handoff_modes == MODES[name]
    run, _, second = checked_runs(name, ("resume",), tmp_path, tiers, solution)["resume"]
    if name == "aider":
        # Aider's restored history (session 1 read a whole tier-2 file) is past its
        # --max-chat-history-tokens: it summarizes it first, in a request of its own, and its
        # conversation then carries the summary (the server's side reply) instead.
        summarized = [r.body for r in second.requests if r.turn is None and MARKER in str(r.body)]
        assert summarized and MARKER not in sent(second), sent(second)[-3000:]
    else:
        assert MARKER in sent(second), sent(second)[-3000:]
    moved = card(run)["sessions"][1]["handoff"]
    assert moved["error"] is None and moved["session_id"] and not moved["skipped"]


def test_each_handoff_mode_continues_as_it_says_and_is_kept_apart(
    tmp_path: Path, tiers: Path, solution: Solution
) -> None:
    name = COMPARED
    assert adapter_traits(get_agent(PLAYS[name].agent)).handoff_modes == MODES[name]
    runs = checked_runs(name, MODES[name], tmp_path, tiers, solution)
    cards = {mode: card(run) for mode, (run, _, _) in runs.items()}
    fresh, resume = cards["fresh"], cards["resume"]
    # fresh: nothing of session 1 reaches session 2; resume: its conversation does.
    assert MARKER not in sent(runs["fresh"][2])
    assert "handoff" not in fresh["sessions"][1]
    assert MARKER in sent(runs["resume"][2]), sent(runs["resume"][2])[-3000:]
    moved = resume["sessions"][1]["handoff"]
    assert moved["error"] is None and moved["session_id"] and not moved["skipped"]
    assert moved["state_files"] >= 1 and moved["mode"] == "resume"
    # The same scripted model: the scorecards differ only where the handoff differs.
    changed = differing(*(at_one_address(without_timings(c)) for c in (fresh, resume)))
    handoff_only = {".handoff", ".receipt.handoff", ".sessions[1].handoff"}
    # (the commit id holds its time, to the second; the tree it commits is the same)
    assert changed - handoff_only <= {".receipt.head_commit"}, changed
    assert handoff_only <= changed
    if "compact" in cards:
        check_compaction(runs["compact"][2], fresh, resume, cards["compact"])
    # aggregate keeps one track per mode.
    paths = [str(run / "scorecard.json") for run, _, _ in runs.values()]
    summary = specsnap("aggregate", "--json", *paths, settings={}, tiers=tiers)
    assert summary.returncode == 0, summary.stderr
    tracks = {(s["handoff"], s["runs"]) for s in json.loads(summary.stdout)}
    assert tracks == {(mode, 1) for mode in MODES[name]}
    # The ledger takes none of them: their counts are the scripted server's.
    refused_by_the_ledger({mode: run for mode, (run, _, _) in runs.items()}, tmp_path, tiers)


def refused_by_the_ledger(runs: dict[str, Path], tmp: Path, tiers: Path) -> None:
    """Each run submitted (`specsnap submit`) and refused by `ledger append`, which says why: the
    meter forwarded to the scripted server, not to the API's public address."""
    ledger = tmp / "ledger.jsonl"
    for mode, run in runs.items():
        bundle = tmp / f"{mode}.specsnap.tar"
        submitted = specsnap("submit", str(run), "--out", str(bundle), settings={}, tiers=tiers)
        assert submitted.returncode == 0, submitted.stderr
        appended = specsnap(
            "ledger", "append", str(bundle), "--ledger", str(ledger), settings={}, tiers=tiers
        )
        assert appended.returncode == 1, appended.stdout + appended.stderr
        assert "not official" in appended.stdout and "the meter forwarded" in appended.stdout


def check_compacted(compacted: ScriptedServer, compact: dict[str, Any]) -> None:
    """The compaction request (the first turn) carries session 1's answer and is served; every
    request after it carries the summary instead."""
    assert MARKER in sent(compacted, range(1)) and SUMMARY not in sent(compacted, range(1))
    after = sent(compacted, range(1, 1000))
    assert after and SUMMARY in after and MARKER not in after, after[-3000:]
    moved = compact["sessions"][1]["handoff"]
    assert moved["error"] is None and moved["session_id"] and moved["mode"] == "compact"


@pytest.mark.parametrize("name", ["qwen", "copilot"])
def test_a_cli_compacts_the_resumed_session_with_its_own_command(
    name: str, tmp_path: Path, tiers: Path, solution: Solution
) -> None:
    """Qwen Code's `/compress`, sent before the continuation prompt; Copilot CLI's `copilot
    --resume=ID -p /compact`, then the resume with it (Claude Code's `/compact`: the test
    above). Copilot's own report, its compaction included, equals what the meter counted."""
    run, _, second = checked_runs(name, ("compact",), tmp_path, tiers, solution)["compact"]
    compacted = card(run)
    check_compacted(second, compacted)
    if name == "copilot":
        session = compacted["sessions"][1]
        assert session.get("tokens_reported") == {**session["tokens"], "source": "reported"}
        assert not [n for n in session["notes"] if "reported other token counts" in n], session


def check_compaction(
    compacted: ScriptedServer, fresh: dict[str, Any], resume: dict[str, Any], compact: Any
) -> None:
    """compact: compacted as it says, graded as `resume`, costing only the compaction more."""
    check_compacted(compacted, compact)
    assert compact["scores"]["raw_retention"] == resume["scores"]["raw_retention"] == 1.0
    # also session 2's tokens and turns differ, for the compaction it asked for
    changed = differing(*(at_one_address(without_timings(c)) for c in (fresh, compact)))
    compaction = (".sessions[1].", ".scores.tes", ".scores.eff", ".work.sessions[1].trajectory.")
    costs = {p for p in changed if p.startswith(compaction)}
    handoff_only = {".handoff", ".receipt.handoff"}
    assert changed - handoff_only - costs <= {".receipt.head_commit"}, changed
