"""The adapter for GitHub Copilot CLI (`copilot -p`), pointed at an OpenAI-compatible provider
(its "bring your own key" mode) in offline mode: no GitHub sign-in, telemetry, web tools, GitHub
MCP server or auto-update. Everything it keeps goes to `COPILOT_HOME`, named inside the
session's fresh HOME (never the sandbox).

Its own token report: each session's log, `$COPILOT_HOME/session-state/<id>/events.jsonl`, holds
one `session.usage_record` per model response, written as the response ends, so a cut-off
session still reports what it received (a compaction's call is in its
`session.compaction_complete` event instead); the human summary it prints at the end (`Tokens ↑
… • ↓ …`, rounded) is read only when there is no log.

Handoff: Copilot CLI keeps each session under ~/.copilot/session-state/<id>/ (its event log,
`events.jsonl`, is enough to resume it); `resume` moves that folder and runs `copilot
--resume=<id> -p PROMPT`. `compact` runs its own `/compact` command headless first, as a
process of its own (`copilot --resume=<id> -p /compact`: one `-p` prompt per process, and a
piped stdin is one prompt too), then, if that succeeded, the resume with the prompt; both
under one `/bin/sh -c`, so the session is one process tree.

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
    modes=("resume", "compact"),
    state_paths=(f"{COPILOT_STATE}/session-state",),
    session_file=rf"\.copilot/session-state/({UUID})/events\.jsonl",
)

#: Offline mode (no traffic but the model's), an OpenAI-compatible provider, no auto-update.
COPILOT_ENV: Mapping[str, str] = {
    "COPILOT_OFFLINE": "true",
    "COPILOT_PROVIDER_TYPE": "openai",
    "COPILOT_AUTO_UPDATE": "false",
}


#: `--handoff compact`'s session: `$0` is the CLI, `$1` the prompt, the rest its options (the
#: resumed session's id among them). A failed compaction ends the session (exit status 1):
#: the continuation never runs uncompacted.
COPILOT_COMPACT = 'prompt=$1; shift; "$0" -p /compact "$@" && exec "$0" -p "$prompt" "$@"'


class CopilotCli:
    """Copilot CLI (`copilot -p PROMPT --allow-all-tools`), metered as an OpenAI Chat Completions
    client: `COPILOT_PROVIDER_BASE_URL` at the meter, the placeholder as the provider's key."""

    name: str = "copilot-cli"
    apis: tuple[str, ...] = ("openai",)
    web_tools: str = "disabled"
    handoff: HandoffSupport = COPILOT_HANDOFF
    passthrough_env: tuple[str, ...] = ("COPILOT_PROVIDER_BASE_URL", "COPILOT_PROVIDER_API_KEY")

    def invocation(self, ctx: SessionContext) -> Invocation:
        executable = cli_executable(ctx, "copilot")
        options = [
            *([f"--resume={ctx.resume_id}"] if ctx.resume_id else []),
            "--allow-all-tools",  # required headless: no confirmation prompts
            "--no-ask-user",  # no questions back: nobody answers them
            "--no-auto-update",
            "--no-color",
            *extra_args(ctx),
        ]
        if ctx.handoff == "compact" and ctx.resume_id:
            argv = ["/bin/sh", "-c", COPILOT_COMPACT, executable, ctx.prompt, *options]
        else:
            argv = [executable, "-p", ctx.prompt, *options]
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
