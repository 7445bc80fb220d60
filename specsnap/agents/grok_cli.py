"""The adapter for grok-cli (`grok -p`, the `@vibe-kit/grok-cli` package), an OpenAI Chat
Completions client. Its URL, key and model come from the environment (`GROK_BASE_URL`,
`GROK_API_KEY`, `GROK_MODEL`), so it writes nothing into HOME: given them as flags, it would save
the key and URL into ~/.grok/user-settings.json.

Web tools: grok-cli has no web tool of its own, but with a model whose name contains "grok" it
asks the API for xAI's server-side live search (`search_parameters: {"mode": "auto"}`) whenever
the prompt holds a word like "current", "now" or "latest", or a year; no flag turns that off, so
the adapter says `not-disableable` (other model names get `"mode": "off"`).

Its headless output is the conversation, one JSON message per line, with no token counts: only
the meter counts (`reported` is `unknown`). Handoff: `fresh` only (no session store).

Options (`--agent-opt KEY=VALUE`): `bin`, `model` (default `gpt-fake-1`: the meter forwards any
name), `base_url` (unmetered runs: the API's URL) and `extra_args`, as for the other CLIs.
"""

from __future__ import annotations

from pathlib import Path

from specsnap.agents.base import Invocation, SessionContext, Tokens
from specsnap.agents.clis import cli_executable, extra_args

__all__ = ["GrokCli"]

DEFAULT_MODEL = "gpt-fake-1"


class GrokCli:
    """grok-cli (`grok -p PROMPT`, every operation auto-approved headless), metered as an OpenAI
    Chat Completions client: `GROK_BASE_URL` at the meter, the placeholder as its key."""

    name: str = "grok-cli"
    apis: tuple[str, ...] = ("openai",)
    web_tools: str = "not-disableable"
    passthrough_env: tuple[str, ...] = ("GROK_API_KEY", "GROK_BASE_URL")

    def invocation(self, ctx: SessionContext) -> Invocation:
        argv = (cli_executable(ctx, "grok"), "-p", ctx.prompt, *extra_args(ctx))
        env = {"GROK_MODEL": ctx.options.get("model", DEFAULT_MODEL)}
        route = ctx.routes.get("openai")
        if route is not None:
            env |= {"GROK_BASE_URL": route.base_url, "GROK_API_KEY": route.key}
            env[route.key_env] = route.key
        elif "base_url" in ctx.options:
            env["GROK_BASE_URL"] = ctx.options["base_url"]
        return Invocation(argv, env)

    def usage(self, ctx: SessionContext, stdout: Path, stderr: Path) -> Tokens:
        """Nothing to read: its output carries no token counts."""
        return Tokens.unknown()
