"""The adapter for GitHub Copilot CLI (`copilot -p`), pointed at an OpenAI-compatible provider
(its "bring your own key" mode) in offline mode: no GitHub sign-in, telemetry, web tools, GitHub
MCP server or auto-update. Everything it keeps goes to `COPILOT_HOME`, named inside the
session's fresh HOME (never the sandbox).

Its own token report: each session's log, `$COPILOT_HOME/session-state/<id>/events.jsonl`, holds
one `session.usage_record` per model response, written as the response ends, so a cut-off
session still reports what it received; the human summary it prints at the end (`Tokens ↑ … •
↓ …`, rounded) is read only when there is no log.

Handoff: Copilot CLI keeps each session under ~/.copilot/session-state/<id>/ (its event log,
`events.jsonl`, is enough to resume it); `resume` moves that folder and runs `copilot
--resume=<id> -p PROMPT`. No `compact`: whether `-p /compact` compacts headless was not tried.

Options (`--agent-opt KEY=VALUE`): `bin`, `model` (default `gpt-fake-1`: the meter forwards any
name), `base_url` (unmetered runs: the provider's URL) and `extra_args`, as for the other CLIs.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from specsnap.agents.base import HandoffSupport, Invocation, SessionContext, Tokens
from specsnap.agents.cli_usage import (
    REPORTED,
    parse_copilot_events,
    parse_copilot_summary,
    sum_known,
)
from specsnap.agents.clis import UUID, cli_executable, extra_args, read_output

__all__ = ["CopilotCli", "parse_copilot_events", "parse_copilot_summary"]

DEFAULT_MODEL = "gpt-fake-1"

#: Where the adapter tells Copilot CLI to keep its state, relative to the session's HOME.
COPILOT_STATE = ".copilot"

#: Its sessions: one folder each, named by the session's id, with the event log inside (the
#: folder of locks beside them moves too: a lock left by the cut-off process does not stop a
#: resume).
COPILOT_HANDOFF = HandoffSupport(
    modes=("resume",),
    state_paths=(f"{COPILOT_STATE}/session-state",),
    session_file=rf"\.copilot/session-state/({UUID})/events\.jsonl",
)

#: Offline mode (no traffic but the model's), an OpenAI-compatible provider, no auto-update.
COPILOT_ENV: Mapping[str, str] = {
    "COPILOT_OFFLINE": "true",
    "COPILOT_PROVIDER_TYPE": "openai",
    "COPILOT_AUTO_UPDATE": "false",
}


class CopilotCli:
    """Copilot CLI (`copilot -p PROMPT --allow-all-tools`), metered as an OpenAI Chat Completions
    client: `COPILOT_PROVIDER_BASE_URL` at the meter, the placeholder as the provider's key."""

    name: str = "copilot-cli"
    apis: tuple[str, ...] = ("openai",)
    web_tools: str = "disabled"
    handoff: HandoffSupport = COPILOT_HANDOFF
    passthrough_env: tuple[str, ...] = ("COPILOT_PROVIDER_BASE_URL", "COPILOT_PROVIDER_API_KEY")

    def invocation(self, ctx: SessionContext) -> Invocation:
        argv = [
            cli_executable(ctx, "copilot"),
            "-p",
            ctx.prompt,
            *([f"--resume={ctx.resume_id}"] if ctx.resume_id else []),
            "--allow-all-tools",  # required headless: no confirmation prompts
            "--no-ask-user",  # no questions back: nobody answers them
            "--no-auto-update",
            "--no-color",
            *extra_args(ctx),
        ]
        env = {
            **COPILOT_ENV,
            "COPILOT_HOME": str(ctx.home / COPILOT_STATE),
            "COPILOT_MODEL": ctx.options.get("model", DEFAULT_MODEL),
        }
        route = ctx.routes.get("openai")
        if route is not None:
            env |= {
                "COPILOT_PROVIDER_BASE_URL": route.base_url,
                "COPILOT_PROVIDER_API_KEY": route.key,
                route.key_env: route.key,
            }
        elif "base_url" in ctx.options:
            env["COPILOT_PROVIDER_BASE_URL"] = ctx.options["base_url"]
        return Invocation(tuple(argv), env)

    def usage(self, ctx: SessionContext, stdout: Path, stderr: Path) -> Tokens:
        """Every session log's usage records (this run's); the printed summary only without
        them, and never for a resumed session, whose summary counts the sessions before it."""
        logs = sorted((ctx.home / COPILOT_STATE / "session-state").glob("*/events.jsonl"))
        from_logs = sum_known(parse_copilot_events(read_output(path)) for path in logs)
        if from_logs.source == REPORTED or ctx.resume_id:
            return from_logs
        return parse_copilot_summary(read_output(stdout))
