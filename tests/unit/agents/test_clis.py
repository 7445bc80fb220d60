"""The CLI adapters: their command lines and environments, and how `usage()` finds the output
to parse (the parsers themselves: test_cli_usage.py)."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from specsnap.agents.base import (
    AdapterTraits,
    AgentAdapter,
    ApiRoute,
    HandoffSupport,
    SessionContext,
    Tokens,
    adapter_traits,
)
from specsnap.agents.clis import (
    AIDER_HANDOFF,
    CLAUDE_HANDOFF,
    CODEX_HANDOFF,
    GEMINI_HANDOFF,
    Aider,
    ClaudeCode,
    Codex,
    GeminiCli,
)
from specsnap.errors import UsageError
from tests.unit.agents.test_cli_usage import (  # the sample outputs live beside the parsers' tests
    AIDER_OUTPUT,
    CLAUDE_COMPLETE,
    CODEX_EVENTS,
    CODEX_ROLLOUT,
    CODEX_TURN_COMPLETED,
    GEMINI_CHAT,
    GEMINI_STREAM,
    UNKNOWN,
)

# --- invocations


@pytest.fixture
def ctx(tmp_path: Path) -> SessionContext:
    home = tmp_path / "home"
    home.mkdir()
    return SessionContext(
        index=2,
        sandbox=tmp_path / "sandbox",
        home=home,
        prompt="Continue from the current workspace state.",
        prompt_file=tmp_path / "prompt.txt",
        usage_file=tmp_path / "usage.json",
        options={"bin": "/opt/agent", "model": "m-1", "extra_args": "--flag 'two words'"},
    )


def test_claude_code_invocation(ctx: SessionContext) -> None:
    invocation = ClaudeCode().invocation(ctx)
    assert invocation.argv == (
        "/opt/agent",
        "-p",
        "--output-format",
        "stream-json",
        "--verbose",
        "--include-partial-messages",
        "--dangerously-skip-permissions",
        "--disallowedTools",
        "WebFetch,WebSearch",
        "--model",
        "m-1",
        "--flag",
        "two words",
    )
    assert invocation.stdin == b"Continue from the current workspace state."
    assert invocation.env == {
        "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
        "DISABLE_TELEMETRY": "1",
        "DISABLE_ERROR_REPORTING": "1",
        "DISABLE_AUTOUPDATER": "1",
        "IS_SANDBOX": "1",
    }
    assert {"ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL"} <= set(ClaudeCode.passthrough_env)


def test_codex_invocation(ctx: SessionContext) -> None:
    invocation = Codex().invocation(ctx)
    assert invocation.argv == (
        "/opt/agent",
        "exec",
        "--json",
        "--dangerously-bypass-approvals-and-sandbox",
        "--cd",
        str(ctx.sandbox),
        "--config",
        'web_search="disabled"',
        "--model",
        "m-1",
        "--flag",
        "two words",
        "-",
    )
    assert invocation.stdin == ctx.prompt.encode()
    assert {"OPENAI_API_KEY", "OPENAI_BASE_URL"} <= set(Codex.passthrough_env)
    # CODEX_HOME must default to the fresh HOME, or sessions would share state.
    assert "CODEX_HOME" not in Codex.passthrough_env


def test_codex_base_url_option_becomes_its_config_override(ctx: SessionContext) -> None:
    proxied = replace(ctx, options={"bin": "/opt/agent", "base_url": "http://127.0.0.1:8123/v1"})
    argv = Codex().invocation(proxied).argv
    assert argv[8:10] == ("--config", 'openai_base_url="http://127.0.0.1:8123/v1"')


def test_gemini_auth_option_and_an_existing_settings_file_are_respected(
    ctx: SessionContext,
) -> None:
    GeminiCli().invocation(replace(ctx, options={"bin": "/opt/agent", "auth": "vertex-ai"}))
    settings = ctx.home / ".gemini" / "settings.json"
    assert json.loads(settings.read_text())["security"]["auth"]["selectedType"] == "vertex-ai"
    settings.write_text("{}")
    GeminiCli().invocation(ctx)
    assert settings.read_text() == "{}"


def test_gemini_invocation_passes_the_prompt_and_writes_quiet_settings(
    ctx: SessionContext,
) -> None:
    invocation = GeminiCli().invocation(ctx)
    assert invocation.argv == (
        "/opt/agent",
        "--prompt",
        ctx.prompt,
        "--output-format",
        "stream-json",
        "--yolo",
        "--skip-trust",
        "--model",
        "m-1",
        "--flag",
        "two words",
    )
    assert invocation.stdin is None
    settings = json.loads((ctx.home / ".gemini" / "settings.json").read_text())
    assert settings["privacy"]["usageStatisticsEnabled"] is False
    assert settings["general"]["enableAutoUpdate"] is False
    assert settings["security"]["auth"]["selectedType"] == "gemini-api-key"
    assert settings["tools"]["exclude"] == ["web_fetch", "google_web_search"]
    assert "GEMINI_API_KEY" in GeminiCli.passthrough_env


def test_aider_invocation_keeps_its_files_out_of_the_sandbox_and_runs_the_hooks(
    ctx: SessionContext,
) -> None:
    invocation = Aider().invocation(ctx)
    assert invocation.argv == (
        "/opt/agent",
        "--message-file",
        str(ctx.prompt_file),
        "--yes-always",
        "--no-pretty",
        "--no-stream",
        "--no-check-update",
        "--no-show-release-notes",
        "--analytics-disable",
        "--no-gitignore",
        "--git-commit-verify",
        "--no-dirty-commits",
        "--no-detect-urls",
        "--chat-history-file",
        str(ctx.home / ".aider.chat.history.md"),
        "--input-history-file",
        str(ctx.home / ".aider.input.history"),
        "--model",
        "m-1",
        "--flag",
        "two words",
    )
    assert invocation.stdin is None


@pytest.mark.parametrize("adapter", [ClaudeCode(), Codex(), GeminiCli(), Aider()])
def test_without_options_the_executable_comes_from_path(
    adapter: AgentAdapter, ctx: SessionContext, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    name = {"claude-code": "claude", "gemini-cli": "gemini"}.get(adapter.name, adapter.name)
    executable = bin_dir / name
    executable.write_text("#!/bin/sh\n")
    executable.chmod(0o755)
    bare = replace(ctx, options={}, path=str(bin_dir))
    argv = adapter.invocation(bare).argv
    assert argv[0] == str(executable)
    assert "--model" not in argv

    monkeypatch.setenv("PATH", str(bin_dir))  # SpecSnap's own PATH is not the session's
    with pytest.raises(UsageError, match=f"--agent-opt bin=/path/to/{name}"):
        adapter.invocation(replace(bare, path=str(tmp_path / "nowhere")))


# --- usage() reads the captured files, and the CLIs' own session files when cut off


def test_usage_reads_stdout_and_a_missing_file_is_unknown(
    ctx: SessionContext, tmp_path: Path
) -> None:
    stdout, stderr = tmp_path / "stdout.log", tmp_path / "stderr.log"
    stdout.write_text(CLAUDE_COMPLETE)
    assert ClaudeCode().usage(ctx, stdout, stderr) == Tokens(300, 41, 61, 81, "reported")
    assert ClaudeCode().usage(ctx, tmp_path / "missing", stderr) == UNKNOWN
    stdout.write_text(AIDER_OUTPUT)
    assert Aider().usage(ctx, stdout, stderr).source == "reported"


def test_codex_usage_reads_the_rollouts_in_the_sessions_home_then_stdout(
    ctx: SessionContext, tmp_path: Path
) -> None:
    stdout, stderr = tmp_path / "stdout.log", tmp_path / "stderr.log"
    stdout.write_text("\n".join(CODEX_EVENTS))
    assert Codex().usage(ctx, stdout, stderr) == UNKNOWN
    day = ctx.home / ".codex" / "sessions" / "2026" / "11" / "29"
    day.mkdir(parents=True)
    (day / "rollout-2026-11-29T12-00-00-0199a213.jsonl").write_text(CODEX_ROLLOUT)
    assert Codex().usage(ctx, stdout, stderr) == Tokens(4277, 1590, 0, 22272, "reported")
    stdout.write_text(CODEX_TURN_COMPLETED)  # the rollout, one record per response, still wins
    assert Codex().usage(ctx, stdout, stderr) == Tokens(4277, 1590, 0, 22272, "reported")
    for rollout in day.iterdir():
        rollout.unlink()
    assert Codex().usage(ctx, stdout, stderr) == Tokens(315, 122, 0, 24448, "reported")


def test_gemini_usage_falls_back_to_chat_recordings_in_the_sessions_home(
    ctx: SessionContext, tmp_path: Path
) -> None:
    stdout, stderr = tmp_path / "stdout.log", tmp_path / "stderr.log"
    stdout.write_text("\n".join(GEMINI_STREAM))
    assert GeminiCli().usage(ctx, stdout, stderr) == UNKNOWN
    chats = ctx.home / ".gemini" / "tmp" / "sandbox" / "chats"
    chats.mkdir(parents=True)
    (chats / "session-2026-11-29T12-00-c1a2.jsonl").write_text(GEMINI_CHAT)
    assert GeminiCli().usage(ctx, stdout, stderr) == Tokens(3005, 120, 0, 14000, "reported")


# --- metered sessions: the meter's URL and the placeholder key, from the session's routes

ROUTES = {
    "anthropic": ApiRoute("http://127.0.0.1:9/anthropic", "ANTHROPIC_API_KEY", "sk-ant-api03-p"),
    "openai": ApiRoute("http://127.0.0.1:9/openai", "OPENAI_API_KEY", "sk-proj-p"),
    "gemini": ApiRoute("http://127.0.0.1:9/gemini", "GEMINI_API_KEY", "AIzap"),
}


def test_metered_adapters_send_their_cli_to_the_meter_with_the_placeholder(
    ctx: SessionContext,
) -> None:
    metered = replace(ctx, routes=ROUTES)
    claude = ClaudeCode().invocation(metered).env
    assert claude["ANTHROPIC_BASE_URL"] == "http://127.0.0.1:9/anthropic"
    assert claude["ANTHROPIC_API_KEY"] == "sk-ant-api03-p"
    gemini = GeminiCli().invocation(metered).env
    assert gemini == {
        "GOOGLE_GEMINI_BASE_URL": "http://127.0.0.1:9/gemini",
        "GEMINI_API_KEY": "AIzap",
    }
    aider = Aider().invocation(metered).env
    assert aider["OPENAI_API_BASE"] == "http://127.0.0.1:9/openai"
    assert (
        aider["ANTHROPIC_API_BASE"] == aider["ANTHROPIC_BASE_URL"] == "http://127.0.0.1:9/anthropic"
    )
    assert (aider["OPENAI_API_KEY"], aider["ANTHROPIC_API_KEY"]) == ("sk-proj-p", "sk-ant-api03-p")


def test_metered_codex_talks_to_the_meter_as_its_own_http_provider(ctx: SessionContext) -> None:
    invocation = Codex().invocation(replace(ctx, routes=ROUTES))
    configs = [invocation.argv[i + 1] for i, a in enumerate(invocation.argv) if a == "--config"]
    assert configs == [
        'web_search="disabled"',
        'model_provider="api"',
        'model_providers.api.name="OpenAI"',
        'model_providers.api.base_url="http://127.0.0.1:9/openai"',
        'model_providers.api.env_key="OPENAI_API_KEY"',
        'model_providers.api.wire_api="responses"',
        "model_providers.api.supports_websockets=false",
    ]
    assert invocation.env == {"OPENAI_API_KEY": "sk-proj-p"}


@pytest.mark.parametrize(
    ("adapter", "apis", "handoff"),
    [
        (ClaudeCode(), ("anthropic",), CLAUDE_HANDOFF),
        (Codex(), ("openai",), CODEX_HANDOFF),
        (GeminiCli(), ("gemini",), GEMINI_HANDOFF),
        (Aider(), ("openai", "anthropic"), AIDER_HANDOFF),
    ],
)
def test_cli_adapters_declare_their_apis_web_tools_off_and_handoff_modes(
    adapter: AgentAdapter, apis: tuple[str, ...], handoff: HandoffSupport | None
) -> None:
    assert adapter_traits(adapter) == AdapterTraits(apis, "disabled", True, handoff)


RESUMED = "0123abcd-0000-4000-8000-00000000beef"


def test_resumed_invocations_continue_the_cut_off_session(ctx: SessionContext) -> None:
    resumed = replace(ctx, handoff="resume", resume_id=RESUMED)
    claude = ClaudeCode().invocation(resumed)
    at = claude.argv.index("--resume")
    assert claude.argv[at + 1] == RESUMED and claude.stdin == ctx.prompt.encode()
    codex = Codex().invocation(resumed).argv
    assert codex[1:3] == ("exec", "resume") and codex[-2:] == (RESUMED, "-")
    assert "--cd" not in codex  # `exec resume` takes none: the runner's cwd is the sandbox
    gemini = GeminiCli().invocation(resumed).argv
    assert gemini[gemini.index("--resume") + 1] == "latest"
    assert "--resume" not in GeminiCli().invocation(ctx).argv
    assert "--restore-chat-history" in Aider().invocation(resumed).argv
    assert "--restore-chat-history" not in Aider().invocation(ctx).argv


def test_claude_compacts_its_resumed_session_before_the_prompt(ctx: SessionContext) -> None:
    compacted = ClaudeCode().invocation(replace(ctx, handoff="compact", resume_id=RESUMED))
    assert "--resume" in compacted.argv
    assert compacted.argv[compacted.argv.index("--input-format") + 1] == "stream-json"
    lines = [json.loads(line) for line in (compacted.stdin or b"").decode().splitlines()]
    assert [m["message"]["content"] for m in lines] == ["/compact", ctx.prompt]
    assert "--input-format" not in ClaudeCode().invocation(ctx).argv
