"""Each real agent CLI (Claude Code, Codex, Gemini CLI, aider), offline, through whole SpecSnap
runs against its scripted model server, which accepts only the caller's real key:

- session 1 is cut off while the server is still streaming its answer (the server stalls
  half-way and a source edit lands in the sandbox then); the meter keeps draining, so the
  session's tokens are what the server sent, not what the frozen CLI read;
- session 2 finishes the sprint and commits; its tokens are what the server sent, side
  requests included;
- the agent held only the session's placeholder key, in its own network namespace: every
  request the server saw came through the meter with the real key;
- a CLI that goes around the meter, straight to the server with the key it was given, fails
  to authenticate.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import pytest

from specsnap.agents.base import ApiRoute, get_agent
from specsnap.metering.apis import APIS
from tests.conftest import FIXTURE_TIERS, fixture_value
from tests.functional.cli import card
from tests.support import fake_anthropic, fake_gemini, fake_openai
from tests.support.agent_cli import cli_binary, session_context, start_session
from tests.support.atif import validate_atif
from tests.support.fake_model import (
    Block,
    ScriptedServer,
    Turn,
    Usage,
    presented_keys,
    text,
    trust_reasons,
)

pytestmark = [pytest.mark.slow, pytest.mark.agents]

STARTER = FIXTURE_TIERS / "tier-90" / "starter"
SOLVED = {
    "units/convert.py": (STARTER / "units" / "convert.py")
    .read_text()
    .replace(
        'FACTORS = {"g": 1.0, "kg": 1000.0}',
        'FACTORS = {"g": 1.0, "kg": 1000.0, "lb": 453.59237, "oz": 453.59237 / 16}',
    ),
    "report/lines.py": '''"""Report lines."""

from units import to_grams


def weight_line(name: str, value: float, unit: str) -> str:
    """One line of a weight report: the name and the weight in grams, or kg from HEAVY g."""
    grams = to_grams(value, unit)
    if grams >= HEAVY:
        return f"{name}: {grams / 1000:.2f} kg"
    return f"{name}: {grams:.0f} g"
'''.replace("HEAVY", str(fixture_value("heavy_from"))),
}
COMMIT = "git add -A && git commit -q -m 'Finish the sprint'"


def heredoc(path: str, content: str) -> str:
    return f"cat > {path} <<'PYEOF'\n{content}PYEOF\n"


def aider_whole(files: dict[str, str]) -> str:
    """Aider's `whole` edit format: each file's path, then its whole content fenced."""
    return "".join(f"{path}\n```python\n{content}```\n\n" for path, content in files.items())


@dataclass(frozen=True)
class Playbook:
    """How one CLI is driven: its server, the caller's settings, and how to finish the sprint."""

    cli: str
    agent: str
    api: str
    server: Callable[..., ScriptedServer]
    settings: Callable[[ScriptedServer, str], dict[str, str]]
    finish: Callable[[Path], list[Turn]]
    cache_write: int = 0  # only Anthropic reports cache writes
    options: dict[str, str] = field(default_factory=dict)


def tool_turns(write: Callable[[str, str], Block], commit: Block, cache: int) -> Any:
    def finish(sandbox: Path) -> list[Turn]:
        path = "report/lines.py"
        return [
            Turn((write(str(sandbox / path), SOLVED[path]),), Usage(900, 120, cache, 2500)),
            Turn((commit,), Usage(300, 30, 0, 2600)),
        ]

    return finish


def codex_turns(sandbox: Path) -> list[Turn]:
    command = heredoc("report/lines.py", SOLVED["report/lines.py"]) + COMMIT
    return [Turn((fake_openai.exec_command(command),), Usage(900, 120, 0, 2500))]


def aider_turns(sandbox: Path) -> list[Turn]:
    """Aider edits only files in its chat: the first reply names them (aider adds them and asks
    again), the second edits them."""
    names = " and ".join(SOLVED)
    return [
        Turn((text(f"I need to change {names}."),), Usage(700, 20, 0, 2000)),
        Turn((text(aider_whole(SOLVED)),), Usage(900, 120, 0, 2500)),
    ]


def anthropic_settings(server: ScriptedServer, key: str) -> dict[str, str]:
    return {"ANTHROPIC_BASE_URL": server.base_url, "ANTHROPIC_API_KEY": key}


def openai_settings(server: ScriptedServer, key: str) -> dict[str, str]:
    return {"OPENAI_BASE_URL": server.base_url + "/v1", "OPENAI_API_KEY": key}


def gemini_settings(server: ScriptedServer, key: str) -> dict[str, str]:
    return {"GOOGLE_GEMINI_BASE_URL": server.base_url, "GEMINI_API_KEY": key}


PLAYBOOKS = {
    "claude": Playbook(
        "claude",
        "claude-code",
        "anthropic",
        fake_anthropic.FakeAnthropic,
        anthropic_settings,
        tool_turns(fake_anthropic.write_file, fake_anthropic.bash(COMMIT), 400),
        cache_write=400,
    ),
    "codex": Playbook(
        "codex",
        "codex",
        "openai",
        fake_openai.FakeOpenAI,
        openai_settings,
        codex_turns,
        options={"model": "gpt-fake-1"},
    ),
    "gemini": Playbook(
        "gemini",
        "gemini-cli",
        "gemini",
        fake_gemini.FakeGemini,
        gemini_settings,
        tool_turns(fake_gemini.write_file, fake_gemini.run_shell_command(COMMIT), 0),
        options={"model": "gemini-fake-1"},
    ),
    "aider": Playbook(
        "aider",
        "aider",
        "openai",
        fake_openai.FakeOpenAI,
        openai_settings,
        aider_turns,
        options={"model": "openai/gpt-fake-1"},
    ),
}
REAL_KEYS = {
    "anthropic": "sk-ant-api03-" + "r" * 93 + "AA",
    "openai": "sk-proj-" + "r" * 64,
    "gemini": "AIza" + "r" * 35,
}


def specsnap(*args: str, settings: dict[str, str]) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, SPECSNAP_TIERS_DIR=str(FIXTURE_TIERS), **settings)
    for name in (*APIS["anthropic"].key_envs, *APIS["openai"].key_envs, *APIS["gemini"].key_envs):
        if name not in settings:
            env.pop(name, None)
    return subprocess.run(
        [sys.executable, "-m", "specsnap", *args],
        env=env,
        text=True,
        capture_output=True,
        timeout=600,
    )


def play_run(
    play: Playbook,
    run: Path,
    servers: tuple[ScriptedServer, ScriptedServer],
    key: str,
    options: list[str],
    *extra: str,
) -> subprocess.CompletedProcess[str]:
    """A whole tier-90 run step by step (`extra`: more `prepare` arguments): session 1 against
    the first server, session 2 against the second; the grade step's process."""
    first, second = servers
    prepared = specsnap(
        "prepare", "--tier", "90", "--agent", play.agent, *extra,
        *(arg for option in options for arg in ("--agent-opt", option)),
        "--out", str(run), settings=play.settings(first, key),
    )  # fmt: skip
    assert prepared.returncode == 0, prepared.stderr
    one = specsnap("session", str(run), "1", settings=play.settings(first, key))
    assert one.returncode == 0, one.stderr
    two = specsnap("session", str(run), "2", settings=play.settings(second, key))
    assert two.returncode == 0, two.stderr
    return specsnap("grade", str(run), settings={})


def scripted_calls(turns: list[Turn]) -> list[tuple[str, dict[str, Any]]]:
    return [(b.name, b.input) for turn in turns for b in turn.blocks if b.type == "tool_use"]


def assert_trajectory(path: Path, turns: list[Turn], server: ScriptedServer) -> dict[str, Any]:
    """The session's ATIF trajectory holds every tool call the server scripted, in order, and
    one step per answer the server sent, with that answer's tokens."""
    document = json.loads(path.read_text())
    validate_atif(document)
    steps = document["steps"]
    called = [(c["function_name"], c["arguments"]) for s in steps for c in s.get("tool_calls", [])]
    assert called == scripted_calls(turns), called
    sent = sorted(u.output_tokens for u in server.served)
    assert sorted(s["metrics"]["completion_tokens"] for s in steps) == sent
    return document


#: Said only in session 1's stalled answer: under the default (fresh) handoff it must not reach
#: session 2's requests.
SESSION_ONE_ONLY = "Let me start with the unit conversions."


def counts(usage: Usage) -> dict[str, int]:
    return dict(zip(("input", "output", "cache_write", "cache_read"), usage.counts(), strict=True))


@pytest.mark.parametrize("name", list(PLAYBOOKS))
def test_a_run_is_metered_from_the_servers_side_cut_off_mid_stream_and_completed(
    name: str, tmp_path: Path
) -> None:
    play = PLAYBOOKS[name]
    binary = cli_binary(play.cli)
    run = tmp_path / "run"
    sandbox = run / "sandbox"
    key = REAL_KEYS[play.api]
    streaming = Turn(
        (text(f"{SESSION_ONE_ONLY} " * 20),),
        Usage(1200, 80, play.cache_write, 0),
        stall_s=2.0,
    )
    first = play.server([streaming], api_key=key)
    second = play.server(play.finish(sandbox), api_key=key)
    edited = sandbox / "units" / "convert.py"
    first.on_stall = lambda _: edited.write_text(SOLVED["units/convert.py"])
    options = [f"bin={binary}", *(f"{k}={v}" for k, v in play.options.items())]
    with first.start(), second.start():
        graded = play_run(play, run, (first, second), key, options)
    first.stop()
    second.stop()
    data = card(run)
    assert_trajectory(run / "sessions" / "1" / "trajectory.json", [streaming], first)
    assert_trajectory(run / "sessions" / "2" / "trajectory.json", play.finish(sandbox), second)
    s1, s2 = data["sessions"]
    assert first.stalled.is_set() and s1["cutoff"]["fired"], (s1, graded.stdout)
    assert s1["cutoff"]["file"] == "units/convert.py"
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
    log = run / "sessions" / "2"
    assert data["scores"]["raw_retention"] == 1.0, [
        (f.name, f.read_text()[-3000:]) for f in sorted(log.glob("*.log"))
    ]
    assert not trust_reasons(data)
    # The grade, cross-checked: `verify --run` regrades the final commit and rebuilds the card.
    rebuilt = specsnap("verify", str(run / "scorecard.json"), "--run", str(run), settings={})
    assert rebuilt.returncode == 0 and "rebuild" in rebuilt.stdout, rebuilt.stdout + rebuilt.stderr


@pytest.mark.parametrize("name", list(PLAYBOOKS))
def test_a_request_around_the_meter_fails_to_authenticate(name: str, tmp_path: Path) -> None:
    play = PLAYBOOKS[name]
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
