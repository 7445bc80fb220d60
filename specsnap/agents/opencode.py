"""The adapter for opencode (`opencode run`), and the parser of its JSON event stream.

opencode reads its settings from a config file: the adapter writes one into the session's fresh
HOME (never the sandbox) that defines the meter as an OpenAI-compatible provider, allows every
edit and shell command, and turns the web fetch/search tools, sharing and auto-update off; the
environment turns the models.dev fetch, LSP downloads and default plugins off as well.

Handoff: opencode keeps its sessions in one SQLite database, ~/.local/share/opencode/opencode.db
(with its write-ahead log beside it); `resume` moves those two files and runs `opencode run
--continue`, which continues the most recent top-level session of the project: the moved store
holds the cut-off session's only. No `compact`: `opencode run` cannot ask for a compaction.

Options (`--agent-opt KEY=VALUE`): `bin`, `model` (default `gpt-fake-1`: the meter forwards
any name) and `extra_args`, as for the other CLIs. docs/agents.md has the details.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from specsnap.agents.base import HandoffSupport, Invocation, SessionContext, Tokens
from specsnap.agents.cli_usage import parse_opencode_events
from specsnap.agents.clis import cli_executable, extra_args, read_output

__all__ = ["OpenCode", "parse_opencode_events"]

#: The provider id the meter goes by in opencode's config (`--model meter/<model>`).
PROVIDER = "meter"
DEFAULT_MODEL = "gpt-fake-1"

#: No traffic but the model's: opencode otherwise fetches models.dev, downloads LSP servers and
#: installs its default plugins at start.
OPENCODE_ENV: Mapping[str, str] = {
    "OPENCODE_DISABLE_AUTOUPDATE": "1",
    "OPENCODE_DISABLE_MODELS_FETCH": "1",
    "OPENCODE_DISABLE_LSP_DOWNLOAD": "1",
    "OPENCODE_DISABLE_DEFAULT_PLUGINS": "1",
    "OPENCODE_DISABLE_SHARE": "1",
}

#: opencode's session store: the database and its write-ahead log (the cut-off session's last
#: writes are there until a checkpoint). The database is the session: its name is the "id".
OPENCODE_DB = ".local/share/opencode/opencode.db"
OPENCODE_HANDOFF = HandoffSupport(
    modes=("resume",),
    state_paths=(OPENCODE_DB, OPENCODE_DB + "-wal"),
    session_file=r"\.local/share/opencode/(opencode\.db)",
)


class OpenCode:
    """opencode (`opencode run --format json`), prompt as the message argument; metered through
    an OpenAI-compatible (Chat Completions) provider pointing at the meter."""

    name: str = "opencode"
    apis: tuple[str, ...] = ("openai",)
    web_tools: str = "disabled"
    handoff: HandoffSupport = OPENCODE_HANDOFF
    passthrough_env: tuple[str, ...] = ("OPENAI_API_KEY", "OPENAI_BASE_URL")

    def invocation(self, ctx: SessionContext) -> Invocation:
        """The command line; also writes the config file into the fresh HOME."""
        model = ctx.options.get("model", DEFAULT_MODEL)
        config = ctx.home / ".config" / "opencode" / "opencode.json"
        route = ctx.routes.get("openai")
        key_env = route.key_env if route is not None else "OPENAI_API_KEY"
        base_url = route.base_url if route is not None else ctx.options.get("base_url", "")
        config.parent.mkdir(parents=True, exist_ok=True)
        content = json.dumps(opencode_config(base_url, key_env, model), indent=2)
        config.write_text(content + "\n", encoding="utf-8")
        argv = [
            cli_executable(ctx, "opencode"),
            "run",
            "--format",
            "json",
            "--pure",  # no external plugins
            "--auto",  # approve every permission the config does not deny
            "--model",
            f"{PROVIDER}/{model}",
            *(["--continue"] if ctx.resume_id else []),
            *extra_args(ctx),
            ctx.prompt,
        ]
        env = {**OPENCODE_ENV, "OPENCODE_CONFIG": str(config)}
        if route is not None:
            env[route.key_env] = route.key
        return Invocation(tuple(argv), env)

    def usage(self, ctx: SessionContext, stdout: Path, stderr: Path) -> Tokens:
        return parse_opencode_events(read_output(stdout))


def opencode_config(base_url: str, key_env: str, model: str) -> dict[str, Any]:
    """opencode's config: the meter as its only provider, no prompts, no web tools."""
    return {
        "autoupdate": False,
        "share": "disabled",
        "permission": {"edit": "allow", "bash": "allow", "webfetch": "deny"},
        "tools": {"webfetch": False, "websearch": False},
        "provider": {
            PROVIDER: {
                "npm": "@ai-sdk/openai-compatible",
                "name": "SpecSnap meter",
                "options": {"baseURL": base_url, "apiKey": f"{{env:{key_env}}}"},
                "models": {model: {"name": model}},
            }
        },
        "model": f"{PROVIDER}/{model}",
    }
