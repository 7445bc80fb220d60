"""The agent CLIs the functional tests run: pinned versions, installing them, running a session.

The Claude Code CLI comes from npm into a cache directory of the repository (`.cache/agents`),
at the version pinned here, so every developer and CI runs the same CLI. SPECSNAP_CLAUDE_BIN
names another executable instead. Without node and npm, tests that need the CLI are skipped.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import pytest

from specsnap.agents.base import AgentAdapter, SessionContext

CLAUDE_CODE_PACKAGE = "@anthropic-ai/claude-code"
CLAUDE_CODE_VERSION = "2.1.332"
AGENTS_CACHE = Path(__file__).resolve().parents[2] / ".cache" / "agents"


def npm_install_command(cache: Path = AGENTS_CACHE) -> list[str]:
    """The exact install command (for .ci/run, too)."""
    return [
        "npm",
        "install",
        "--prefix",
        str(cache),
        "--no-audit",
        "--no-fund",
        f"{CLAUDE_CODE_PACKAGE}@{CLAUDE_CODE_VERSION}",
    ]


def installed_claude_version(cache: Path = AGENTS_CACHE) -> str | None:
    manifest = cache / "node_modules" / CLAUDE_CODE_PACKAGE / "package.json"
    try:
        return str(json.loads(manifest.read_text(encoding="utf-8"))["version"])
    except (OSError, ValueError, KeyError):
        return None


def claude_binary(cache: Path = AGENTS_CACHE) -> Path:
    """The Claude Code executable: $SPECSNAP_CLAUDE_BIN, else the pinned version in the cache,
    installed there with npm first when missing. Skips the calling test only when npm is absent.
    """
    override = os.environ.get("SPECSNAP_CLAUDE_BIN")
    if override:
        return Path(override)
    binary = cache / "node_modules" / ".bin" / "claude"
    if installed_claude_version(cache) == CLAUDE_CODE_VERSION and binary.exists():
        return binary
    if shutil.which("npm") is None or shutil.which("node") is None:
        pytest.skip("node and npm are not installed: cannot install the Claude Code CLI")
    cache.mkdir(parents=True, exist_ok=True)
    done = subprocess.run(
        npm_install_command(cache), capture_output=True, text=True, timeout=600, check=False
    )
    assert done.returncode == 0, f"npm install failed:\n{done.stdout}\n{done.stderr}"
    assert installed_claude_version(cache) == CLAUDE_CODE_VERSION
    return binary


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
