"""Adapters for the real coding-agent CLIs: Claude Code, Codex, Gemini CLI and aider.

Each adapter starts its CLI headless in the sandbox (the runner's working directory) with every
permission prompt and every web fetch/search tool turned off, points it at SpecSnap's meter with
the session's placeholder key (`SessionContext.routes`), and reads the tokens the CLI reported
itself (kept beside the metered ones). Sessions are routinely cut off mid-stream, so
every parser sums what was reported up to the cut rather than insisting on a final summary,
skips torn or foreign lines, and answers `unknown` only when nothing at all was reported.

Options (`--agent-opt KEY=VALUE`), common to all four: `bin` (the executable; default: looked up
on PATH), `model`, and `extra_args` (more arguments, split like a shell would). docs/agents.md
documents each CLI's argv, environment and token fields, and the CLI versions checked against.
"""

from __future__ import annotations

import json
import shlex
import shutil
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from specsnap.agents.base import (
    ApiRoute,
    HandoffSupport,
    Invocation,
    SessionContext,
    Tokens,
)
from specsnap.agents.cli_usage import (
    parse_aider_output,
    parse_claude_stream,
    parse_codex_events,
    parse_codex_rollout,
    parse_gemini_chat,
    parse_gemini_stream,
    sum_known,
)
from specsnap.errors import UsageError

__all__ = [
    "Aider",
    "ClaudeCode",
    "Codex",
    "GeminiCli",
    "parse_aider_output",
    "parse_claude_stream",
    "parse_codex_events",
    "parse_codex_rollout",
    "parse_gemini_chat",
    "parse_gemini_stream",
]

REPORTED = "reported"

#: Claude Code without any traffic but its model's: no telemetry, error reports or update checks
#: (CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC alone covers them; the others are belt and braces).
#: IS_SANDBOX=1 is the CLI's own escape from its refusal of --dangerously-skip-permissions as root.
CLAUDE_ENV: Mapping[str, str] = {
    "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
    "DISABLE_TELEMETRY": "1",
    "DISABLE_ERROR_REPORTING": "1",
    "DISABLE_AUTOUPDATER": "1",
    "IS_SANDBOX": "1",
}

#: Claude Code's web tools (WebSearch runs on the API's side, so egress confinement alone would
#: not stop it).
CLAUDE_WEB_TOOLS = "WebFetch,WebSearch"

#: Gemini CLI reads these only from a settings file; it is written into the session's fresh HOME.
GEMINI_SETTINGS: Mapping[str, Any] = {
    "general": {"enableAutoUpdate": False, "enableAutoUpdateNotification": False},
    "privacy": {"usageStatisticsEnabled": False},
    "tools": {"exclude": ["web_fetch", "google_web_search"]},
}
#: Headless Gemini CLI needs an explicit auth type once GOOGLE_GEMINI_BASE_URL is set (0.61.0
#: rejects the "gateway" type it infers); `--agent-opt auth=vertex-ai` etc. chooses another.
GEMINI_DEFAULT_AUTH = "gemini-api-key"


UUID = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"

#: Claude Code keeps each session as ~/.claude/projects/<the working directory, slugged>/<id>.jsonl;
#: `--resume <id>` continues one (the sandbox's path is the same in every session of a run), and
#: `compact` first sends its own `/compact` command in the resumed session, then the prompt.
CLAUDE_HANDOFF = HandoffSupport(
    modes=("resume", "compact"),
    state_paths=(".claude/projects",),
    session_file=rf"\.claude/projects/[^/]+/({UUID})\.jsonl",
)


#: Codex keeps each session as ~/.codex/sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl;
#: `codex exec resume <id>` continues one. (No compaction on demand headless: resume only.)
CODEX_HANDOFF = HandoffSupport(
    modes=("resume",),
    state_paths=(".codex/sessions",),
    session_file=rf"\.codex/sessions/\d{{4}}/\d{{2}}/\d{{2}}/rollout-[0-9T:-]+-({UUID})\.jsonl",
)


#: Aider keeps one chat history file (SpecSnap puts it in HOME); `--restore-chat-history` reads
#: it back into the chat. The file is the session: its name is the "id".
AIDER_HISTORY = ".aider.chat.history.md"
AIDER_HANDOFF = HandoffSupport(
    modes=("resume",),
    state_paths=(AIDER_HISTORY,),
    session_file=r"(\.aider\.chat\.history\.md)",
)


#: Gemini CLI keeps each session as ~/.gemini/tmp/<project>/chats/session-<time>-<id>.jsonl
#: (projects.json names the project of each working directory). 0.61.0 resumes by `latest` or
#: an index, not by id: the moved store holds the cut-off session only, so `latest` is it.
GEMINI_HANDOFF = HandoffSupport(
    modes=("resume",),
    state_paths=(".gemini/tmp", ".gemini/projects.json"),
    session_file=r"\.gemini/tmp/[^/]+/chats/session-[0-9T:-]+-([0-9a-f]{8})\.jsonl",
)


class ClaudeCode:
    """Anthropic's Claude Code (`claude`), prompt on stdin."""

    name: str = "claude-code"
    apis: tuple[str, ...] = ("anthropic",)
    web_tools: str = "disabled"
    handoff: HandoffSupport = CLAUDE_HANDOFF
    passthrough_env: tuple[str, ...] = (
        "ANTHROPIC_API_KEY",
        "ANTHROPIC_AUTH_TOKEN",
        "ANTHROPIC_BASE_URL",
        "ANTHROPIC_MODEL",
        "CLAUDE_CODE_OAUTH_TOKEN",
    )

    def invocation(self, ctx: SessionContext) -> Invocation:
        compact = ctx.handoff == "compact" and ctx.resume_id is not None
        argv = [
            cli_executable(ctx, "claude"),
            "-p",
            "--output-format",
            "stream-json",
            "--verbose",
            "--include-partial-messages",
            "--dangerously-skip-permissions",
            "--disallowedTools",
            CLAUDE_WEB_TOOLS,
            *(["--resume", ctx.resume_id] if ctx.resume_id else []),
            *(["--input-format", "stream-json"] if compact else []),
            *_model(ctx, "--model"),
            *extra_args(ctx),
        ]
        env = {**CLAUDE_ENV, **_route_env(ctx.routes.get("anthropic"), "ANTHROPIC_BASE_URL")}
        stdin = user_messages("/compact", ctx.prompt) if compact else ctx.prompt.encode()
        return Invocation(tuple(argv), env, stdin)

    def usage(self, ctx: SessionContext, stdout: Path, stderr: Path) -> Tokens:
        return parse_claude_stream(read_output(stdout))


class Codex:
    """OpenAI's Codex CLI (`codex exec`), prompt on stdin. Metered, it talks to the meter as a
    model provider of its own (Responses API over HTTP: the built-in provider would use a
    WebSocket). Codex 0.171 ignores OPENAI_BASE_URL; unmetered, `--agent-opt base_url=URL` sets
    its `openai_base_url`."""

    name: str = "codex"
    apis: tuple[str, ...] = ("openai",)
    web_tools: str = "disabled"
    handoff: HandoffSupport = CODEX_HANDOFF
    passthrough_env: tuple[str, ...] = ("OPENAI_API_KEY", "OPENAI_BASE_URL", "CODEX_API_KEY")

    def invocation(self, ctx: SessionContext) -> Invocation:
        """`codex exec`, or `codex exec resume ID` (which takes no --cd: the runner's working
        directory is the sandbox already) when the session resumes its predecessor."""
        argv = [
            cli_executable(ctx, "codex"),
            "exec",
            *(["resume"] if ctx.resume_id else []),
            "--json",
            # The SpecSnap sandbox is the isolation; Codex's own sandbox would keep .git read-only.
            "--dangerously-bypass-approvals-and-sandbox",
            *([] if ctx.resume_id else ["--cd", str(ctx.sandbox)]),
            "--config",
            'web_search="disabled"',
            *_codex_provider(ctx),
            *_model(ctx, "--model"),
            *extra_args(ctx),
            *([ctx.resume_id] if ctx.resume_id else []),
            "-",
        ]
        route = ctx.routes.get("openai")
        env = {route.key_env: route.key} if route is not None else {}
        return Invocation(tuple(argv), env, ctx.prompt.encode())

    def usage(self, ctx: SessionContext, stdout: Path, stderr: Path) -> Tokens:
        """The session's rollout files: one token record per model response, so a cut-off
        session counts every response that completed. The `turn.completed` events on stdout
        (a turn's total) only when there is no rollout."""
        rollouts = sorted((ctx.home / ".codex" / "sessions").glob("**/rollout-*.jsonl"))
        from_rollouts = sum_known(parse_codex_rollout(read_output(path)) for path in rollouts)
        if from_rollouts.source == REPORTED:
            return from_rollouts
        return parse_codex_events(read_output(stdout))


class GeminiCli:
    """Google's Gemini CLI (`gemini -p`), prompt as the -p argument."""

    name: str = "gemini-cli"
    apis: tuple[str, ...] = ("gemini",)
    web_tools: str = "disabled"
    handoff: HandoffSupport = GEMINI_HANDOFF
    passthrough_env: tuple[str, ...] = (
        "GEMINI_API_KEY",
        "GOOGLE_API_KEY",
        "GOOGLE_GEMINI_BASE_URL",
        "GOOGLE_GENAI_USE_VERTEXAI",
        "GOOGLE_CLOUD_PROJECT",
        "GOOGLE_CLOUD_LOCATION",
        "GOOGLE_APPLICATION_CREDENTIALS",
    )

    def invocation(self, ctx: SessionContext) -> Invocation:
        """The command line; also writes the CLI's settings into the fresh HOME (no usage
        statistics, no update checks), the only place Gemini CLI reads them from."""
        settings = ctx.home / ".gemini" / "settings.json"
        if not settings.exists():
            auth = {"auth": {"selectedType": ctx.options.get("auth", GEMINI_DEFAULT_AUTH)}}
            settings.parent.mkdir(parents=True, exist_ok=True)
            content = json.dumps({**GEMINI_SETTINGS, "security": auth}, indent=2)
            settings.write_text(content + "\n", encoding="utf-8")
        argv = [
            cli_executable(ctx, "gemini"),
            "--prompt",
            ctx.prompt,
            "--output-format",
            "stream-json",
            "--yolo",
            "--skip-trust",
            *(["--resume", "latest"] if ctx.resume_id else []),
            *_model(ctx, "--model"),
            *extra_args(ctx),
        ]
        env = _route_env(ctx.routes.get("gemini"), "GOOGLE_GEMINI_BASE_URL")
        return Invocation(tuple(argv), env)

    def usage(self, ctx: SessionContext, stdout: Path, stderr: Path) -> Tokens:
        reported = parse_gemini_stream(read_output(stdout))
        if reported.source == REPORTED:
            return reported
        chats = sorted((ctx.home / ".gemini" / "tmp").glob("*/chats/**/*.jsonl"))
        return sum_known(parse_gemini_chat(read_output(path)) for path in chats)


class Aider:
    """Aider (`aider --message-file`), prompt from the session's prompt file. Metered for OpenAI
    and Anthropic models (its model library's base-URL variables point at the meter)."""

    name: str = "aider"
    apis: tuple[str, ...] = ("openai", "anthropic")
    web_tools: str = "disabled"  # no web tool; --no-detect-urls stops it fetching URLs it sees
    handoff: HandoffSupport = AIDER_HANDOFF
    passthrough_env: tuple[str, ...] = (
        "ANTHROPIC_API_KEY",
        "ANTHROPIC_API_BASE",
        "OPENAI_API_KEY",
        "OPENAI_API_BASE",
        "GEMINI_API_KEY",
        "DEEPSEEK_API_KEY",
        "OPENROUTER_API_KEY",
    )

    def invocation(self, ctx: SessionContext) -> Invocation:
        argv = [
            cli_executable(ctx, "aider"),
            "--message-file",
            str(ctx.prompt_file),
            "--yes-always",
            "--no-pretty",
            "--no-stream",  # streamed replies may carry no provider usage; aider then estimates
            "--no-check-update",
            "--no-show-release-notes",
            "--analytics-disable",
            "--no-gitignore",
            "--git-commit-verify",  # aider commits with --no-verify by default: a protocol breach
            "--no-dirty-commits",  # else it commits whatever the working tree holds, unasked
            "--no-detect-urls",
            "--chat-history-file",
            str(ctx.home / AIDER_HISTORY),
            *(["--restore-chat-history"] if ctx.resume_id else []),
            "--input-history-file",
            str(ctx.home / ".aider.input.history"),
            *_model(ctx, "--model"),
            *extra_args(ctx),
        ]
        env = {
            **_route_env(ctx.routes.get("openai"), "OPENAI_API_BASE"),
            **_route_env(ctx.routes.get("anthropic"), "ANTHROPIC_API_BASE", "ANTHROPIC_BASE_URL"),
        }
        return Invocation(tuple(argv), env)

    def usage(self, ctx: SessionContext, stdout: Path, stderr: Path) -> Tokens:
        return parse_aider_output(read_output(stdout))


# --- helpers ---


def user_messages(*prompts: str) -> bytes:
    """User messages in order, as `claude -p --input-format stream-json` reads them on stdin
    (and Qwen Code's `--input-format stream-json`)."""
    lines = (
        json.dumps({"type": "user", "message": {"role": "user", "content": p}}) for p in prompts
    )
    return "".join(line + "\n" for line in lines).encode()


def read_output(path: Path) -> str:
    """What a session's CLI wrote to `path` ("" when it wrote nothing readable)."""
    try:
        return path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""


def cli_executable(ctx: SessionContext, name: str) -> str:
    """The CLI to run: `--agent-opt bin=…`, else `name` on the session's PATH (a clear error if
    neither)."""
    if ctx.options.get("bin"):
        return ctx.options["bin"]
    found = shutil.which(name, path=ctx.path)
    if found is None:
        raise UsageError(
            f"the {name!r} executable is not on PATH; install it, or name it with "
            f"--agent-opt bin=/path/to/{name}"
        )
    return found


def _route_env(route: ApiRoute | None, *url_variables: str) -> dict[str, str]:
    """The variables that send a CLI to the meter: its base URL(s) and the placeholder key."""
    if route is None:
        return {}
    return {**{name: route.base_url for name in url_variables}, route.key_env: route.key}


#: Codex's own name for the meter as a model provider (any name but the built-in ones).
CODEX_PROVIDER = "api"


def _codex_provider(ctx: SessionContext) -> list[str]:
    """Codex's model provider: the meter (Responses over HTTP, the key from the route's
    variable), or unmetered the built-in one at `--agent-opt base_url`."""
    route = ctx.routes.get("openai")
    if route is None:
        url = ctx.options.get("base_url")
        return ["--config", f"openai_base_url={json.dumps(url)}"] if url else []
    settings = {
        "name": "OpenAI",
        "base_url": route.base_url,
        "env_key": route.key_env,
        "wire_api": "responses",
        "supports_websockets": False,
    }
    args = ["--config", f"model_provider={json.dumps(CODEX_PROVIDER)}"]
    for key, value in settings.items():
        args += ["--config", f"model_providers.{CODEX_PROVIDER}.{key}={json.dumps(value)}"]
    return args


def _model(ctx: SessionContext, flag: str) -> list[str]:
    model = ctx.options.get("model")
    return [flag, model] if model else []


def extra_args(ctx: SessionContext) -> list[str]:
    """`--agent-opt extra_args=…`, split as a shell would."""
    return shlex.split(ctx.options.get("extra_args", ""))
