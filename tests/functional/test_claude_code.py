"""The real Claude Code CLI, headless and offline, driven by the `claude-code` adapter against a
scripted fake of the Anthropic API: it must edit and commit for real, and the adapter must read
back exactly the tokens the fake reported, from a whole session and from a cut-off one.
"""

from __future__ import annotations

import subprocess
import time
from pathlib import Path

import pytest

from specsnap.agents.base import Tokens
from specsnap.agents.clis import ClaudeCode
from tests.support.agent_cli import claude_binary, session_context, start_session
from tests.support.fake_anthropic import FakeAnthropic, Turn, Usage, bash, text, write_file

pytestmark = [pytest.mark.claude, pytest.mark.slow]

PROMPT = "Add a greet() function in greet.py and commit it."
GREET_PY = 'def greet(name: str) -> str:\n    return f"Hello, {name}!"\n'


@pytest.fixture(scope="module")
def claude_bin() -> Path:
    return claude_binary()


def git(repo: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", "-C", str(repo), *args], capture_output=True, text=True, check=True
    )
    return done.stdout.strip()


@pytest.fixture
def sandbox(tmp_path: Path) -> Path:
    repo = tmp_path / "sandbox"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    git(repo, "config", "user.name", "SpecSnap Test")
    git(repo, "config", "user.email", "test@specsnap.invalid")
    (repo / "README.md").write_text("# demo\n", encoding="utf-8")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "Baseline")
    return repo


def anthropic_settings(server: FakeAnthropic) -> dict[str, str]:
    return {"ANTHROPIC_BASE_URL": server.base_url, "ANTHROPIC_API_KEY": "sk-ant-fake-key"}


def test_claude_writes_and_commits_and_reports_exact_tokens(
    claude_bin: Path, sandbox: Path, tmp_path: Path
) -> None:
    script = [
        Turn(
            (text("I'll add the module."), write_file(str(sandbox / "greet.py"), GREET_PY)),
            Usage(1200, 80, 3000, 0),
        ),
        Turn((bash("git add -A && git commit -m 'Add greet'"),), Usage(150, 40, 200, 3000)),
    ]
    final = Turn((text("Committed greet.py."),), Usage(90, 12, 0, 3200))
    adapter = ClaudeCode()
    ctx = session_context(tmp_path, sandbox, PROMPT, bin=str(claude_bin))
    with FakeAnthropic(script, final=final) as server:
        session = start_session(adapter, ctx, anthropic_settings(server))
        assert session.wait(timeout=120) == 0, session.stderr.read_text()

    assert (sandbox / "greet.py").read_text(encoding="utf-8") == GREET_PY
    assert git(sandbox, "log", "-1", "--format=%s") == "Add greet"
    assert git(sandbox, "show", "--name-only", "--format=", "HEAD") == "greet.py"
    assert git(sandbox, "status", "--porcelain") == ""
    assert adapter.usage(ctx, session.stdout, session.stderr) == Tokens(
        1200 + 150 + 90, 80 + 40 + 12, 3000 + 200, 3000 + 3200, "reported"
    )
    # Offline: nothing but the conversation reached the model's host (no start-up probes), and
    # the prompt arrived through stdin.
    assert [(r.method, r.path.split("?")[0], r.turn) for r in server.requests] == [
        ("POST", "/v1/messages", 0),
        ("POST", "/v1/messages", 1),
        ("POST", "/v1/messages", 2),
    ]
    assert PROMPT in str(server.requests[0].body["messages"])


def test_a_session_cut_off_after_its_first_py_write_reports_the_tokens_so_far(
    claude_bin: Path, sandbox: Path, tmp_path: Path
) -> None:
    script = [
        Turn((write_file(str(sandbox / "greet.py"), GREET_PY),), Usage(1500, 64, 2500, 100)),
        Turn((text("Never sent: the session is cut off first."),), Usage(9, 9, 9, 9), delay=60),
    ]
    adapter = ClaudeCode()
    ctx = session_context(tmp_path, sandbox, PROMPT, bin=str(claude_bin))
    with FakeAnthropic(script) as server:
        session = start_session(adapter, ctx, anthropic_settings(server))
        deadline = time.monotonic() + 60
        # The second request proves the write completed and turn 1 is fully on stdout.
        while server.turns_served < 2 and session.process.poll() is None:
            assert time.monotonic() < deadline, "the CLI never asked for its second turn"
            time.sleep(0.05)
        session.kill()

    assert (sandbox / "greet.py").read_text(encoding="utf-8") == GREET_PY
    assert git(sandbox, "status", "--porcelain") == "?? greet.py"
    assert '"type":"result"' not in session.stdout.read_text().replace(" ", "")
    assert adapter.usage(ctx, session.stdout, session.stderr) == Tokens(
        1500, 64, 2500, 100, "reported"
    )
