"""The adapter for Qwen Code (`qwen`), a Gemini CLI descendant that speaks OpenAI's Chat
Completions. Its settings file goes into the session's fresh HOME (never the sandbox): no usage
statistics, no auto-update, the web fetch/search tools excluded.

Handoff: Qwen Code records each session as ~/.qwen/projects/<working directory, slugged>/chats/
<id>.jsonl; `resume` runs `qwen --resume <id>` with the continuation prompt, and `compact` the
same with its messages on stdin (`--input-format stream-json`): its own `/compress` command, then
the prompt. An `initialize` control request goes first: 0.24.4 enqueues a first *user* message
only after its set-up, behind the messages read meanwhile, so `/compress` would run last.

Options (`--agent-opt KEY=VALUE`): `bin`, `model` (default `gpt-fake-1`: the meter forwards any
name) and `extra_args`, as for the other CLIs. docs/agents.md has the details.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from specsnap.agents.base import HandoffSupport, Invocation, SessionContext, Tokens
from specsnap.agents.cli_usage import parse_qwen_stream
from specsnap.agents.clis import UUID, cli_executable, extra_args, read_output, user_messages

__all__ = ["QwenCode", "parse_qwen_stream"]

DEFAULT_MODEL = "gpt-fake-1"

QWEN_SETTINGS: Mapping[str, Any] = {
    "general": {"disableAutoUpdate": True, "disableUpdateNag": True},
    "privacy": {"usageStatisticsEnabled": False},
    "telemetry": {"enabled": False},
    "tools": {"exclude": ["web_fetch", "web_search"]},
}

#: Qwen Code's stream-json control request that starts its session in order (see the docstring).
QWEN_INITIALIZE = {
    "type": "control_request",
    "request_id": "init",
    "request": {"subtype": "initialize"},
}

#: Where Qwen Code keeps its sessions: one JSONL file per session, named by its id.
QWEN_HANDOFF = HandoffSupport(
    modes=("resume", "compact"),
    state_paths=(".qwen/projects",),
    session_file=rf"\.qwen/projects/[^/]+/chats/({UUID})\.jsonl",
)


class QwenCode:
    """Qwen Code (`qwen --output-format stream-json --yolo PROMPT`), metered as an OpenAI
    Chat Completions client (`--auth-type openai`, OPENAI_BASE_URL at the meter)."""

    name: str = "qwen-code"
    apis: tuple[str, ...] = ("openai",)
    web_tools: str = "disabled"
    handoff: HandoffSupport = QWEN_HANDOFF
    passthrough_env: tuple[str, ...] = ("OPENAI_API_KEY", "OPENAI_BASE_URL", "OPENAI_MODEL")

    def invocation(self, ctx: SessionContext) -> Invocation:
        """The command line; also writes the settings file into the fresh HOME."""
        settings = ctx.home / ".qwen" / "settings.json"
        settings.parent.mkdir(parents=True, exist_ok=True)
        settings.write_text(json.dumps(QWEN_SETTINGS, indent=2) + "\n", encoding="utf-8")
        compact = ctx.handoff == "compact" and ctx.resume_id is not None
        argv = [
            cli_executable(ctx, "qwen"),
            "--output-format",
            "stream-json",
            "--yolo",
            "--auth-type",
            "openai",
            "--model",
            ctx.options.get("model", DEFAULT_MODEL),
            *(["--resume", ctx.resume_id] if ctx.resume_id else []),
            *(["--input-format", "stream-json"] if compact else []),
            *extra_args(ctx),
            *([] if compact else [ctx.prompt]),
        ]
        env = {"QWEN_CODE_SUPPRESS_YOLO_WARNING": "1"}
        route = ctx.routes.get("openai")
        if route is not None:
            env |= {"OPENAI_BASE_URL": route.base_url, route.key_env: route.key}
        if not compact:
            return Invocation(tuple(argv), env)
        initialize = (json.dumps(QWEN_INITIALIZE) + "\n").encode()
        return Invocation(tuple(argv), env, initialize + user_messages("/compress", ctx.prompt))

    def usage(self, ctx: SessionContext, stdout: Path, stderr: Path) -> Tokens:
        return parse_qwen_stream(read_output(stdout))
