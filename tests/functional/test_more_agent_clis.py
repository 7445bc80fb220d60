"""The agent CLIs added after the first four (opencode, Qwen Code, mini-swe-agent, GitHub Copilot
CLI, grok-cli), offline, through a whole SpecSnap run of tier-2 (seed 1, root-only as in the
Action's container) under the default handoff, `fresh`, against a scripted model server, like
tests/functional/test_agent_clis.py: session 1 is cut off at its first edit (the file the
notetaker control edits first, solved) while the server stalls mid-answer; session 2 hears only
the continuation prompt (no session-1 text reaches its requests), applies the rest of the
control's solution, commits and stops; the tokens metered are what the server served, the CLI's
own report (where it makes one) is read beside them, the ATIF trajectories hold what the server
served, and the grade retains every requirement (raw retention 1.0, as the sprint is fully
solved) and is the one `specsnap verify --run` rebuilds. mini-swe-agent and grok-cli support
only `fresh`; the others' `resume` (and Qwen Code's `compact`): tests/functional/test_handoff.py.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from specsnap.agents.base import adapter_traits, get_agent
from tests.functional.cli import card
from tests.support.atif import assert_trajectory
from tests.support.fake_model import Turn, Usage, text, trust_reasons
from tests.support.tier2_play import (
    PLAYS,
    SHELL,
    Solution,
    counts,
    finish,
    specsnap,
    stalled_run,
)

pytestmark = [pytest.mark.slow, pytest.mark.agents]

CLIS = ("opencode", "qwen", "mini", "copilot", "grok")
#: The adapters of CLIs that keep no session SpecSnap could move (docs/agents.md).
FRESH_ONLY = ("mini", "grok")
#: grok-cli cannot turn off xAI's live search for grok models, and reports no tokens.
WEB_TOOLS = {"grok": "not-disableable"}
REPORTS_NO_TOKENS = ("grok",)
#: Said only in session 1's stalled answer: it must not reach session 2's requests.
SESSION_ONE_MARK = "Plan-2b7c: let me start with the pricing rules."


def session_two(name: str, solution: Solution) -> list[Turn]:
    """The rest of the solution applied and committed, then a turn that ends the session: mini
    finishes when a command echoes its submit marker, the others at an answer without a call."""
    if name == "mini":
        done = SHELL[name]("echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT")
    else:
        done = text("Done.")
    return [*finish(name, solution), Turn((done,), Usage(300, 30, 0, 0))]


@pytest.mark.parametrize("name", [pytest.param(name, id=PLAYS[name].agent) for name in CLIS])
def test_a_run_is_cut_off_at_the_first_edit_metered_and_completed(
    name: str, tmp_path: Path, tiers: Path, solution: Solution
) -> None:
    play = PLAYS[name]
    modes = adapter_traits(get_agent(play.agent)).handoff_modes
    assert (modes == ("fresh",)) if name in FRESH_ONLY else ("fresh" in modes), modes
    run = tmp_path / "run"
    streaming = Turn((text(SESSION_ONE_MARK * 20),), Usage(1200, 80, 0, 0), stall_s=2.0)
    turns = session_two(name, solution)
    graded, first, second = stalled_run(play, run, streaming, turns, tiers, solution)
    data = card(run)
    assert data["handoff"] == "fresh", data["handoff"]
    s1, s2 = data["sessions"]
    assert first.stalled.is_set() and s1["cutoff"]["fired"], (s1, graded.stdout)
    assert s1["cutoff"]["file"] == solution.first
    assert s1["tokens"] == {**counts(first.total_usage()), "source": "metered"}
    assert s1["egress_enforced"] is True and s1["web_tools"] == WEB_TOOLS.get(name, "disabled")
    assert s2["exit"]["status"] == "completed", s2
    assert s2["tokens"] == {**counts(second.total_usage()), "source": "metered"}, s2["notes"]
    # The CLI's own report: its scripted answers (opencode's title request reports nothing).
    reported = counts(sum((turn.usage for turn in turns), Usage()))
    if name in REPORTS_NO_TOKENS:
        reported = dict.fromkeys(reported, 0)
    source = "unknown" if name in REPORTS_NO_TOKENS else "reported"
    assert s2["tokens_reported"] == {**reported, "source": source}
    assert s2["meter"]["refused_requests"] == 0
    for server in (first, second):
        assert server.requests and not server.rejected
    # A fresh handoff: nothing session 1 heard reaches session 2's requests.
    assert not [r for r in second.requests if SESSION_ONE_MARK in json.dumps(r.body)]
    assert "handoff" not in s2
    log = run / "sessions" / "2"
    assert data["scores"]["raw_retention"] == 1.0, [
        (f.name, f.read_text()[-3000:]) for f in sorted(log.glob("*.log"))
    ]
    assert_trajectory(run / "sessions" / "1" / "trajectory.json", [streaming], first)
    assert_trajectory(run / "sessions" / "2" / "trajectory.json", turns, second)
    assert not trust_reasons(data), data["unofficial_reasons"]
    # The grade, cross-checked: `verify --run` regrades the final commit and rebuilds the card.
    scorecard = str(run / "scorecard.json")
    rebuilt = specsnap("verify", scorecard, "--run", str(run), settings={}, tiers=tiers)
    assert rebuilt.returncode == 0 and "rebuild" in rebuilt.stdout, rebuilt.stdout + rebuilt.stderr
