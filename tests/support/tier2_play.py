"""Playing the real agent CLIs through whole SpecSnap runs of tier-2 (seed 1), offline, against
their scripted model servers: how each CLI is played (its server, the caller's settings, its
options, its shell tool), tier-2 root-only as in the Action's container, the notetaker control's
solution of the seed (the scripted model's edits), and a run's steps.

Every adapter's `fresh` (tests/functional/test_agent_clis.py, test_more_agent_clis.py) and the
other handoff modes (test_handoff.py) are played with it; the `tiers` and `solution` fixtures
(tests/functional/conftest.py) wrap `root_only_tiers` and `solved`, once per test process.
"""

from __future__ import annotations

import base64
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from specsnap.metering.apis import APIS
from tests.conftest import ROOT
from tests.functional.cli import card
from tests.support import fake_anthropic, fake_gemini, fake_openai
from tests.support.agent_cli import cli_binary
from tests.support.fake_model import Block, ScriptedServer, Turn, Usage, text, tool_use

SEED = "1"
#: The keys each scripted server accepts: the caller's, which only the meter holds.
REAL_KEYS = {
    "anthropic": "sk-ant-api03-" + "r" * 93 + "AA",
    "openai": "sk-proj-" + "r" * 64,
    "gemini": "AIza" + "r" * 35,
}
COMMIT = "git add -A && git commit -q -m 'Finish the sprint'"


def heredoc(path: str, content: str) -> str:
    return f"cat > {path} <<'PYEOF'\n{content}PYEOF\n"


def aider_whole(files: dict[str, str]) -> str:
    """Aider's `whole` edit format: each file's path, then its whole content fenced."""
    return "".join(f"{path}\n```python\n{content}```\n\n" for path, content in files.items())


def counts(usage: Usage) -> dict[str, int]:
    """A usage in a scorecard's terms."""
    return dict(zip(("input", "output", "cache_write", "cache_read"), usage.counts(), strict=True))


def anthropic_settings(server: ScriptedServer, key: str) -> dict[str, str]:
    return {"ANTHROPIC_BASE_URL": server.base_url, "ANTHROPIC_API_KEY": key}


def openai_settings(server: ScriptedServer, key: str) -> dict[str, str]:
    return {"OPENAI_BASE_URL": server.base_url + "/v1", "OPENAI_API_KEY": key}


def gemini_settings(server: ScriptedServer, key: str) -> dict[str, str]:
    return {"GOOGLE_GEMINI_BASE_URL": server.base_url, "GEMINI_API_KEY": key}


@dataclass(frozen=True)
class Playbook:
    """How one CLI is driven: its launcher's name, its adapter, its API and scripted server, the
    caller's settings for that server, and the adapter's options."""

    cli: str
    agent: str
    api: str
    server: Callable[..., ScriptedServer]
    settings: Callable[[ScriptedServer, str], dict[str, str]]
    cache_write: int = 0  # only Anthropic reports cache writes
    options: dict[str, str] = field(default_factory=dict)

    def agent_opts(self, binary: Path) -> list[str]:
        """The `--agent-opt` values: the pinned launcher and the adapter's options."""
        return [f"bin={binary}", *(f"{k}={v}" for k, v in self.options.items())]


def _openai(cli: str, agent: str, model: str = "gpt-fake-1") -> Playbook:
    return Playbook(cli, agent, "openai", fake_openai.FakeOpenAI, openai_settings,
                    options={"model": model})  # fmt: skip


#: Every adapter of a real CLI, by its launcher's name (tests/support/agent_cli.py).
PLAYS = {
    "claude": Playbook("claude", "claude-code", "anthropic", fake_anthropic.FakeAnthropic,
                       anthropic_settings, cache_write=400),
    "codex": _openai("codex", "codex"),
    "gemini": Playbook("gemini", "gemini-cli", "gemini", fake_gemini.FakeGemini, gemini_settings,
                       options={"model": "gemini-fake-1"}),
    "aider": _openai("aider", "aider", "openai/gpt-fake-1"),
    "opencode": _openai("opencode", "opencode"),
    "qwen": _openai("qwen", "qwen-code"),
    "copilot": _openai("copilot", "copilot-cli"),
    "mini": _openai("mini", "mini-swe-agent"),
    "grok": _openai("grok", "grok-cli"),
}  # fmt: skip


def _bash(command: str) -> Block:
    return tool_use("bash", command=command)


#: Each CLI's shell tool (aider has none: it edits whole files it was told about).
SHELL: dict[str, Callable[[str], Block]] = {
    "claude": lambda command: fake_anthropic.bash(command, "Run a command"),
    "codex": fake_openai.exec_command,
    "gemini": fake_gemini.run_shell_command,
    "opencode": lambda command: tool_use("bash", command=command, description="Run a command"),
    "qwen": lambda command: tool_use("run_shell_command", command=command),
    "copilot": lambda command: tool_use("bash", command=command, description="Run a command"),
    "mini": _bash,  # mini's one tool
    "grok": _bash,
}


@contextmanager
def root_only_tiers() -> Iterator[Path]:
    """tier-2 in a root-only directory, as in the Action's container: the agent's account cannot
    read the hidden tests."""
    base = Path(tempfile.mkdtemp(prefix="specsnap-tier-2-root-only-", dir="/tmp"))
    try:
        shutil.copytree(ROOT / "tiers" / "tier-2", base / "tier-2")
        subprocess.run(["chmod", "-R", "go-rwx", str(base)], check=True)
        base.chmod(0o711)
        yield base
    finally:
        shutil.rmtree(base, ignore_errors=True)


@dataclass(frozen=True)
class Solution:
    """tier-2 (seed SEED) solved: the one file session 1 writes whole, the solution's patch, and
    every file the solution writes, in its solved form (aider writes those)."""

    first: str
    first_content: str
    patch: str
    files: dict[str, str]


@contextmanager
def solved(tiers: Path) -> Iterator[Solution]:
    """tier-2 solved as the notetaker control solves it (its whole diff but its notes): session 1
    writes the file the control edits first, session 2 the rest."""
    scratch = Path(tempfile.mkdtemp(prefix="specsnap-tier-2-solved-", dir="/tmp"))
    try:
        scratch.chmod(0o711)  # the agent's account reaches the run inside
        out = scratch / "run"
        run = specsnap("run", "--tier", "2", "--seed", SEED, "--agent", "notetaker", "--out",
                       str(out), settings={}, tiers=tiers)  # fmt: skip
        assert run.returncode == 0, run.stdout + run.stderr
        first = card(out)["sessions"][0]["cutoff"]["file"]

        def git(*args: str) -> str:
            done = subprocess.run(["git", "-C", str(out / "sandbox"), *args],
                                  capture_output=True, text=True, check=True)  # fmt: skip
            return done.stdout

        base = git("rev-list", "--max-parents=0", "HEAD").strip()
        paths = [".", ":(exclude)NOTES.md"]
        changed = git("diff", "--name-only", "--diff-filter=AM", base, "HEAD", "--", *paths)
        files = {path: git("show", f"HEAD:{path}") for path in changed.split()}
        patch = git("diff", base, "HEAD", "--", *paths)
        yield Solution(first, git("show", f"HEAD:{first}"), patch, files)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def finish(name: str, solution: Solution) -> list[Turn]:
    """Session 2 finishes the sprint: the first file restored (session 1 may have been frozen
    half-way through writing it) and the whole patch applied with the CLI's shell tool, then a
    commit; aider names the files, then writes each whole (it commits by itself). Gemini CLI gets
    the patch base64-encoded (a heredoc in its shell tool left it unapplied)."""
    usage = Usage(900, 120, PLAYS[name].cache_write, 2500)
    if name == "aider":
        names = " and ".join(solution.files)
        ask = Turn((text(f"I need to change {names}."),), Usage(700, 20, 0, 2000))
        return [ask, Turn((text(aider_whole(solution.files)),), usage)]
    if name == "gemini":
        encoded = base64.b64encode(solution.patch.encode()).decode()
        command = f"git checkout -- {solution.first} && echo {encoded} | base64 -d | git apply"
        return [Turn((SHELL[name](f"{command} && {COMMIT}"),), usage)]
    restore = f"git checkout -- {solution.first}"
    command = f"{restore} && git apply <<'PATCH'\n{solution.patch}PATCH\n{COMMIT}"
    return [Turn((SHELL[name](command),), usage)]


def specsnap(*args: str, settings: dict[str, str], tiers: Path) -> subprocess.CompletedProcess[str]:
    """`specsnap ARGS` with the tiers of `tiers` and no API key but those of `settings`."""
    env = {**os.environ, "SPECSNAP_TIERS_DIR": str(tiers), **settings}
    for name in (k for api in APIS.values() for k in api.key_envs):
        if name not in settings:
            env.pop(name, None)
    command = [sys.executable, "-m", "specsnap", *args]
    return subprocess.run(command, env=env, text=True, capture_output=True, timeout=600)


def play_run(
    play: Playbook,
    run: Path,
    servers: tuple[ScriptedServer, ScriptedServer],
    key: str,
    options: list[str],
    tiers: Path,
    *extra: str,
) -> subprocess.CompletedProcess[str]:
    """A whole run step by step (`extra`: more `prepare` arguments, the tier's): session 1 against
    the first server, session 2 against the second; the grade step's process."""
    first, second = servers
    prepared = specsnap(
        "prepare", "--agent", play.agent, *extra,
        *(arg for option in options for arg in ("--agent-opt", option)),
        "--out", str(run), settings=play.settings(first, key), tiers=tiers,
    )  # fmt: skip
    assert prepared.returncode == 0, prepared.stderr
    for index, server in (("1", first), ("2", second)):
        ran = specsnap("session", str(run), index, settings=play.settings(server, key), tiers=tiers)
        assert ran.returncode == 0, ran.stderr
    return specsnap("grade", str(run), settings={}, tiers=tiers)


def stalled_run(
    play: Playbook,
    run: Path,
    streaming: Turn,
    turns: list[Turn],
    tiers: Path,
    solved: Solution,
) -> tuple[subprocess.CompletedProcess[str], ScriptedServer, ScriptedServer]:
    """A `fresh` whole run of tier-2: session 1 hears `streaming`, whose stall writes the first
    file of the solution (the cutoff's edit); session 2 hears `turns`. The grade step's process
    and both sessions' servers."""
    key = REAL_KEYS[play.api]
    first = play.server([streaming], api_key=key)
    second = play.server(turns, api_key=key)
    edited = run / "sandbox" / solved.first
    first.on_stall = lambda _: edited.write_text(solved.first_content)
    options = play.agent_opts(cli_binary(play.cli))
    with first.start(), second.start():
        graded = play_run(play, run, (first, second), key, options, tiers, "--tier", "2",
                          "--seed", SEED)  # fmt: skip
    first.stop()
    second.stop()
    return graded, first, second
