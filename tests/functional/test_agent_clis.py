"""Each real agent CLI (Claude Code, Codex, Gemini CLI, aider), offline, through a whole SpecSnap
run of tier-2 (seed 1, root-only as in the Action's container) under the default handoff,
`fresh`, against its scripted model server, which accepts only the caller's real key; the
scripted model's edits are the notetaker control's solution of that seed
(tests/support/tier2_play.py):

- session 1 is cut off while the server is still streaming its answer (the server stalls
  half-way and the file the control edits first lands in the sandbox, solved, then); the meter
  keeps draining, so the session's tokens are what the server sent, not what the frozen CLI read
  (which the CLI's own report, kept beside them, shows);
- session 2 hears nothing of session 1 (its requests are checked for session 1's answer),
  applies the rest of the solution and commits; its tokens are what the server sent, side
  requests included; both sessions' ATIF trajectories hold what the server served;
- the agent held only the session's placeholder key, in its own network namespace: every
  request the server saw came through the meter with the real key;
- the grade retains every requirement and is the one `specsnap verify --run` rebuilds;
- a CLI that goes around the meter, straight to the server with the key it was given, fails
  to authenticate.

The CLIs added after these four: tests/functional/test_more_agent_clis.py; the other handoff
modes: tests/functional/test_handoff.py.
"""

from __future__ import annotations

import json
import subprocess
import time
from dataclasses import replace
from pathlib import Path

import pytest

from specsnap.agents.base import ApiRoute, adapter_traits, get_agent
from specsnap.metering.apis import APIS
from tests.functional.cli import card
from tests.support.agent_cli import cli_binary, session_context, start_session
from tests.support.atif import assert_trajectory
from tests.support.fake_model import Turn, Usage, presented_keys, text, trust_reasons
from tests.support.tier2_play import (
    PLAYS,
    REAL_KEYS,
    Solution,
    counts,
    finish,
    specsnap,
    stalled_run,
)

pytestmark = [pytest.mark.slow, pytest.mark.agents]

CLIS = ("claude", "codex", "gemini", "aider")
#: Said only in session 1's stalled answer: under the default (fresh) handoff it must not reach
#: session 2's requests.
SESSION_ONE_ONLY = "Plan-9d1e: let me start with the pricing rules."


@pytest.mark.parametrize("name", CLIS)
def test_a_run_is_metered_from_the_servers_side_cut_off_mid_stream_and_completed(
    name: str, tmp_path: Path, tiers: Path, solution: Solution
) -> None:
    play = PLAYS[name]
    assert "fresh" in adapter_traits(get_agent(play.agent)).handoff_modes
    run = tmp_path / "run"
    streaming = Turn(
        (text(f"{SESSION_ONE_ONLY} " * 20),),
        Usage(1200, 80, play.cache_write, 0),
        stall_s=2.0,
    )
    turns = finish(name, solution)
    graded, first, second = stalled_run(play, run, streaming, turns, tiers, solution)
    data = card(run)
    assert data["handoff"] == "fresh", data["handoff"]
    assert_trajectory(run / "sessions" / "1" / "trajectory.json", [streaming], first)
    assert_trajectory(run / "sessions" / "2" / "trajectory.json", turns, second)
    s1, s2 = data["sessions"]
    assert first.stalled.is_set() and s1["cutoff"]["fired"], (s1, graded.stdout)
    assert s1["cutoff"]["file"] == solution.first
    # Session 1: the whole stalled answer counts, though the CLI was frozen half-way through it.
    assert s1["tokens"] == {**counts(first.total_usage()), "source": "metered"}
    assert s1["tokens"]["output"] >= 80 and s1["tokens_reported"] != s1["tokens"]
    assert s1["egress_enforced"] is True and s1["web_tools"] == "disabled"
    # Session 2: every answer the server sent, side requests (titles, commit messages) included.
    assert s2["exit"]["status"] == "completed", s2
    assert s2["tokens"] == {**counts(second.total_usage()), "source": "metered"}, s2["notes"]
    assert s2["egress_enforced"] is True and s2["meter"]["refused_requests"] == 0
    # Every request reached the servers through the meter, with the real key.
    for server in (first, second):
        assert server.requests and not server.rejected
    # A fresh handoff: nothing session 1 heard reaches session 2's requests.
    assert not [r.path for r in second.requests if SESSION_ONE_ONLY in json.dumps(r.body)]
    assert "handoff" not in s2
    log = run / "sessions" / "2"
    assert data["scores"]["raw_retention"] == 1.0, [
        (f.name, f.read_text()[-3000:]) for f in sorted(log.glob("*.log"))
    ]
    # Official but for the scripted server, whose counts SpecSnap cannot check.
    assert not trust_reasons(data), data["unofficial_reasons"]
    # The grade, cross-checked: `verify --run` regrades the final commit and rebuilds the card.
    scorecard = str(run / "scorecard.json")
    rebuilt = specsnap("verify", scorecard, "--run", str(run), settings={}, tiers=tiers)
    assert rebuilt.returncode == 0 and "rebuild" in rebuilt.stdout, rebuilt.stdout + rebuilt.stderr


@pytest.mark.parametrize("name", CLIS)
def test_a_request_around_the_meter_fails_to_authenticate(name: str, tmp_path: Path) -> None:
    play = PLAYS[name]
    binary = cli_binary(play.cli)
    sandbox = tmp_path / "sandbox"
    sandbox.mkdir()
    subprocess.run(["git", "init", "-q", str(sandbox)], check=True)
    adapter = get_agent(play.agent)
    api = APIS[play.api]
    with play.server([], api_key=REAL_KEYS[play.api]) as server:
        upstream = play.settings(server, "unused")
        base_url = next(v for k, v in upstream.items() if "BASE" in k)
        route = ApiRoute(base_url, api.key_envs[0], api.placeholder())
        ctx = session_context(tmp_path, sandbox, "Say hello.", bin=str(binary), **play.options)
        ctx = replace(ctx, routes={play.api: route})
        session = start_session(adapter, ctx, {})
        # Some CLIs retry a refused request for minutes: two refusals are enough to see.
        deadline = time.monotonic() + 90
        while len(server.rejected) < 2 and session.process.poll() is None:
            assert time.monotonic() < deadline, session.stderr.read_text()[-2000:]
            time.sleep(0.1)
        session.kill()
    assert server.requests, session.stderr.read_text()[-2000:]
    assert all(r.rejected for r in server.requests)
    assert {k for r in server.requests for k in presented_keys(r.headers, r.path)} == {route.key}
    assert server.turns_served == 0 and not list(sandbox.glob("*.py"))
