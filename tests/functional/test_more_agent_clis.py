"""The agent CLIs added after the first four (opencode, Qwen Code, mini-swe-agent, GitHub Copilot
CLI, grok-cli), offline, through a whole SpecSnap run against a scripted model server, like
tests/functional/test_agent_clis.py: session 1 is cut off at its first edit while the server
stalls mid-answer; session 2 hears only "continue" (no session-1 text reaches its requests),
finishes the sprint and commits; the tokens metered are what the server served, the CLI's own
report (where it makes one) is read beside them, the ATIF trajectories hold what the server
served, and the grade matches the reference solution's (raw retention 1.0, as the sprint is fully
solved) and what `specsnap verify --run` rebuilds.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.functional.cli import card
from tests.functional.test_agent_clis import (
    COMMIT,
    REAL_KEYS,
    SOLVED,
    assert_trajectory,
    counts,
    heredoc,
    openai_settings,
    specsnap,
)
from tests.support import fake_openai
from tests.support.agent_cli import cli_binary
from tests.support.fake_model import Turn, Usage, text, tool_use, trust_reasons

pytestmark = [pytest.mark.slow, pytest.mark.agents]

#: Said only in session 1's stalled answer: it must not reach session 2's requests.
SESSION_ONE_MARK = "Let me start with the unit conversions."


def opencode_turns() -> list[Turn]:
    command = heredoc("report/lines.py", SOLVED["report/lines.py"]) + COMMIT
    call = tool_use("bash", command=command, description="Finish the report and commit")
    return [Turn((call,), Usage(900, 120, 0, 2500)), Turn((text("Done."),), Usage(300, 30, 0, 0))]


def qwen_turns() -> list[Turn]:
    command = heredoc("report/lines.py", SOLVED["report/lines.py"]) + COMMIT
    call = tool_use("run_shell_command", command=command)
    return [Turn((call,), Usage(900, 120, 0, 2500)), Turn((text("Done."),), Usage(300, 30, 0, 0))]


def mini_turns() -> list[Turn]:
    """mini's one tool is bash; it finishes when a command echoes its submit marker."""
    command = heredoc("report/lines.py", SOLVED["report/lines.py"]) + COMMIT
    submit = tool_use("bash", command="echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT")
    return [
        Turn((tool_use("bash", command=command),), Usage(900, 120, 0, 2500)),
        Turn((submit,), Usage(300, 30, 0, 0)),
    ]


def grok_turns() -> list[Turn]:
    command = heredoc("report/lines.py", SOLVED["report/lines.py"]) + COMMIT
    call = tool_use("bash", command=command)
    return [Turn((call,), Usage(900, 120, 0, 2500)), Turn((text("Done."),), Usage(300, 30, 0, 0))]


@dataclass(frozen=True)
class Play:
    cli: str
    agent: str
    turns: Callable[[], list[Turn]]
    web_tools: str = "disabled"
    reports_tokens: bool = True


PLAYS = {
    "opencode": Play("opencode", "opencode", opencode_turns),
    "qwen-code": Play("qwen", "qwen-code", qwen_turns),
    "mini-swe-agent": Play("mini", "mini-swe-agent", mini_turns),
    # Copilot CLI's shell tool is `bash` too, with the same arguments.
    "copilot-cli": Play("copilot", "copilot-cli", opencode_turns),
    # grok-cli cannot turn off xAI's live search for grok models, and reports no tokens.
    "grok-cli": Play("grok", "grok-cli", grok_turns, "not-disableable", reports_tokens=False),
}

#: The CLIs whose every model request is a scripted conversation turn (no side requests), so
#: their ATIF trajectories are checked against the script call by call.
SCRIPT_ONLY = ("copilot-cli", "grok-cli")


@pytest.mark.parametrize("name", list(PLAYS))
def test_a_run_is_cut_off_at_the_first_edit_metered_and_completed(
    name: str, tmp_path: Path
) -> None:
    play = PLAYS[name]
    binary = cli_binary(play.cli)
    run = tmp_path / "run"
    sandbox = run / "sandbox"
    key = REAL_KEYS["openai"]
    streaming = Turn((text(SESSION_ONE_MARK * 20),), Usage(1200, 80, 0, 0), stall_s=2.0)
    first = fake_openai.FakeOpenAI([streaming], api_key=key)
    second = fake_openai.FakeOpenAI(play.turns(), api_key=key)
    edited = sandbox / "units" / "convert.py"
    first.on_stall = lambda _: edited.write_text(SOLVED["units/convert.py"])
    with first.start(), second.start():
        prepared = specsnap(
            "prepare", "--tier", "90", "--agent", play.agent, "--agent-opt", f"bin={binary}",
            "--agent-opt", "model=gpt-fake-1", "--out", str(run),
            settings=openai_settings(first, key),
        )  # fmt: skip
        assert prepared.returncode == 0, prepared.stderr
        one = specsnap("session", str(run), "1", settings=openai_settings(first, key))
        assert one.returncode == 0, one.stderr
        two = specsnap("session", str(run), "2", settings=openai_settings(second, key))
        assert two.returncode == 0, two.stderr
        graded = specsnap("grade", str(run), settings={})
    first.stop()
    second.stop()
    data = card(run)
    s1, s2 = data["sessions"]
    assert first.stalled.is_set() and s1["cutoff"]["fired"], (s1, graded.stdout)
    assert s1["cutoff"]["file"] == "units/convert.py"
    assert s1["tokens"] == {**counts(first.total_usage()), "source": "metered"}
    assert s1["egress_enforced"] is True and s1["web_tools"] == play.web_tools
    assert s2["exit"]["status"] == "completed", s2
    assert s2["tokens"] == {**counts(second.total_usage()), "source": "metered"}, s2["notes"]
    # The CLI's own report: its two answers (opencode's title request reports nothing).
    reported = {"input": 1200, "output": 150, "cache_write": 0, "cache_read": 2500}
    if not play.reports_tokens:
        reported = {key: 0 for key in reported}
    source = "reported" if play.reports_tokens else "unknown"
    assert s2["tokens_reported"] == {**reported, "source": source}
    assert s2["meter"]["refused_requests"] == 0
    for server in (first, second):
        assert server.requests and not server.rejected
    assert not [r for r in second.requests if SESSION_ONE_MARK in json.dumps(r.body)]
    log = run / "sessions" / "2"
    assert data["scores"]["raw_retention"] == 1.0, [
        (f.name, f.read_text()[-3000:]) for f in sorted(log.glob("*.log"))
    ]
    if name in SCRIPT_ONLY:
        assert_trajectory(run / "sessions" / "1" / "trajectory.json", [streaming], first)
        assert_trajectory(run / "sessions" / "2" / "trajectory.json", play.turns(), second)
        assert not trust_reasons(data), data["unofficial_reasons"]
        rebuilt = specsnap("verify", str(run / "scorecard.json"), "--run", str(run), settings={})
        assert rebuilt.returncode == 0 and "rebuild" in rebuilt.stdout, rebuilt.stdout
