"""The agent CLIs the functional tests run: pinned versions, installing them, running a session.

The CLIs are pinned in scripts/agent-clis.txt and installed by scripts/install-agent-clis.sh
(which .ci/run calls) into `.cache/agents`, each behind a launcher in `.cache/agents/bin`.
A test that needs one runs the install script when its launcher is missing, and skips, naming
the CLI and the install's error, only when the package cannot install. SPECSNAP_<NAME>_BIN
(e.g. SPECSNAP_CLAUDE_BIN) names another executable instead.
"""

from __future__ import annotations

import os
import signal
import subprocess
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest

from specsnap.agents.base import AgentAdapter, SessionContext

ROOT = Path(__file__).resolve().parents[2]
AGENTS_CACHE = ROOT / ".cache" / "agents"
PINS_FILE = ROOT / "scripts" / "agent-clis.txt"
INSTALL_SCRIPT = ROOT / "scripts" / "install-agent-clis.sh"


@cache
def pinned_versions() -> dict[str, str]:
    """CLI name → pinned version, from scripts/agent-clis.txt."""
    pins = {}
    for line in PINS_FILE.read_text(encoding="utf-8").splitlines():
        fields = line.split()
        if len(fields) == 4 and not line.startswith("#"):
            pins[fields[0]] = fields[3]
    return pins


@cache
def _install() -> str:
    """Run the install script once per test run; its output (for a skip's reason)."""
    done = subprocess.run(
        ["bash", str(INSTALL_SCRIPT)], capture_output=True, text=True, timeout=900, check=False
    )
    return (done.stdout + done.stderr).strip()


def cli_binary(name: str) -> Path:
    """The launcher of the pinned CLI `name` (claude, codex, gemini, aider), installed first when
    missing; $SPECSNAP_<NAME>_BIN instead when set. Skips the calling test, with the install's
    own words, only when the CLI cannot be installed."""
    override = os.environ.get(f"SPECSNAP_{name.upper()}_BIN")
    if override:
        return Path(override)
    launcher = AGENTS_CACHE / "bin" / name
    if not launcher.exists():
        log = _install()
        if not launcher.exists():
            pytest.skip(f"the {name} CLI could not be installed: {log[-500:]}")
    return launcher


def claude_binary() -> Path:
    """The pinned Claude Code CLI (see cli_binary)."""
    return cli_binary("claude")


def agent_environment(
    home: Path, declared: Mapping[str, str], settings: Mapping[str, str]
) -> dict[str, str]:
    """A session environment like the runner's (specsnap.sessions): PATH, the fresh HOME, no
    terminal, CI=true, `settings` standing for the caller's passthrough variables, and the
    adapter's declared variables."""
    (home / "tmp").mkdir(exist_ok=True)
    return {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(home),
        "TMPDIR": str(home / "tmp"),
        "LANG": "C.UTF-8",
        "LC_ALL": "C.UTF-8",
        "TERM": "dumb",
        "CI": "true",
        **settings,
        **declared,
    }


def session_context(tmp: Path, sandbox: Path, prompt: str, **options: str) -> SessionContext:
    """A session-1 context with a fresh HOME and the prompt file under `tmp`."""
    home = tmp / "home"
    home.mkdir(exist_ok=True)
    prompt_file = tmp / "prompt.txt"
    prompt_file.write_text(prompt, encoding="utf-8")
    return SessionContext(
        index=1,
        sandbox=sandbox,
        home=home,
        prompt=prompt,
        prompt_file=prompt_file,
        usage_file=tmp / "usage.json",
        options=options,
    )


@dataclass
class RunningSession:
    """An agent process started like the runner starts one: own process group, output in files."""

    process: subprocess.Popen[bytes]
    stdout: Path
    stderr: Path

    def wait(self, timeout: float) -> int:
        try:
            return self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            self.kill()
            raise

    def kill(self) -> None:
        """Kill the whole process group at once (a cutoff, without the SIGSTOP subtleties)."""
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(10)


def start_session(
    adapter: AgentAdapter, ctx: SessionContext, settings: Mapping[str, str]
) -> RunningSession:
    """Start `adapter`'s invocation for `ctx` in the sandbox; `settings` are the passthrough
    variables' values (e.g. ANTHROPIC_BASE_URL of a fake server)."""
    invocation = adapter.invocation(ctx)
    unknown = set(settings) - set(adapter.passthrough_env)
    assert not unknown, f"not passthrough variables of {adapter.name}: {sorted(unknown)}"
    out_dir = ctx.prompt_file.parent
    stdout, stderr = out_dir / "stdout.log", out_dir / "stderr.log"
    with stdout.open("wb") as out, stderr.open("wb") as err:
        process = subprocess.Popen(
            invocation.argv,
            cwd=ctx.sandbox,
            env=agent_environment(ctx.home, invocation.env, settings),
            stdin=subprocess.PIPE if invocation.stdin is not None else subprocess.DEVNULL,
            stdout=out,
            stderr=err,
            start_new_session=True,
        )
    if process.stdin is not None:
        process.stdin.write(invocation.stdin or b"")
        process.stdin.close()
    return RunningSession(process, stdout, stderr)
