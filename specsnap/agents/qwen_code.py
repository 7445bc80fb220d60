"""The adapter for Qwen Code (`qwen`), a Gemini CLI descendant that speaks OpenAI's Chat
Completions. Its settings file goes into the session's fresh HOME (never the sandbox): no usage
statistics, no auto-update, the web fetch/search tools excluded.

Handoff: Qwen Code records each session as ~/.qwen/projects/<working directory, slugged>/chats/
<id>.jsonl; `resume` runs `qwen --resume <id>` with the continuation prompt. No `compact`: its
`/compress` runs headless, but not before a prompt of the same run (docs/agents.md).

Options (`--agent-opt KEY=VALUE`): `bin`, `model` (default `gpt-fake-1`: the meter forwards any
name) and `extra_args`, as for the other CLIs. docs/agents.md has the details.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from specsnap.agents.base import HandoffSupport, Invocation, SessionContext, TokenUsage
from specsnap.agents.cli_usage import parse_qwen_stream
from specsnap.agents.clis import UUID, cli_executable, extra_args, read_output

__all__ = ["QwenCode", "parse_qwen_stream"]

DEFAULT_MODEL = "gpt-fake-1"

QWEN_SETTINGS: Mapping[str, Any] = {
    "general": {"disableAutoUpdate": True, "disableUpdateNag": True},
    "privacy": {"usageStatisticsEnabled": False},
    "telemetry": {"enabled": False},
    "tools": {"exclude": ["web_fetch", "web_search"]},
}

#: Where Qwen Code keeps its sessions: one JSONL file per session, named by its id.
QWEN_HANDOFF = HandoffSupport(
    modes=("resume",),
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
            *extra_args(ctx),
            ctx.prompt,
        ]
        env = {"QWEN_CODE_SUPPRESS_YOLO_WARNING": "1"}
        route = ctx.routes.get("openai")
        if route is not None:
            env |= {"OPENAI_BASE_URL": route.base_url, route.key_env: route.key}
        return Invocation(tuple(argv), env)

    def usage(self, ctx: SessionContext, stdout: Path, stderr: Path) -> TokenUsage:
        return parse_qwen_stream(read_output(stdout))
