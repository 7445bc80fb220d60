"""The `command` adapter: any program, given as a template.

`--agent-opt cmd='my-agent --prompt {prompt}'` (or `{prompt_file}`; with neither placeholder the
prompt arrives on stdin). The command runs through `/bin/sh -c` in the sandbox, placeholders
shell-quoted.

Tokens: with `--agent-opt apis=anthropic,openai,gemini` (any of them) the program's model APIs
go through SpecSnap's meter: it gets each API's base URL and a placeholder key in the usual
variables (ANTHROPIC_BASE_URL / OPENAI_BASE_URL / GOOGLE_GEMINI_BASE_URL, and the key variable
the caller set, e.g. ANTHROPIC_API_KEY), and its tokens are `metered`. Otherwise, if it writes
JSON to `$SPECSNAP_USAGE_FILE` — keys `input`, `output`, `cache_write`, `cache_read` (or
Anthropic's `input_tokens`, `output_tokens`, `cache_creation_input_tokens`,
`cache_read_input_tokens`) — they are `reported`; a file without any of those keys, or with a
bad value, is `unknown`, never zero.
"""

from __future__ import annotations

import json
import shlex
from dataclasses import dataclass
from pathlib import Path

from specsnap.agents.base import Invocation, SessionContext
from specsnap.errors import UsageError
from specsnap.scorecard.model import Tokens

ALIASES = {
    "input": ("input", "input_tokens"),
    "output": ("output", "output_tokens"),
    "cache_write": ("cache_write", "cache_creation_input_tokens"),
    "cache_read": ("cache_read", "cache_read_input_tokens"),
}


#: The variable each metered API's base URL goes in (the APIs' own SDKs read these).
BASE_URL_VARIABLES = {
    "anthropic": "ANTHROPIC_BASE_URL",
    "openai": "OPENAI_BASE_URL",
    "gemini": "GOOGLE_GEMINI_BASE_URL",
}


@dataclass(frozen=True)
class CommandAgent:
    name: str = "command"
    passthrough_env: tuple[str, ...] = ()
    web_tools: str = "not-disableable"  # any program: SpecSnap cannot know its tools

    def invocation(self, ctx: SessionContext) -> Invocation:
        template = ctx.options.get("cmd")
        if not template:
            raise UsageError("the command agent needs --agent-opt cmd='COMMAND {prompt}'")
        uses_placeholder = "{prompt}" in template or "{prompt_file}" in template
        command = template.replace("{prompt_file}", shlex.quote(str(ctx.prompt_file)))
        command = command.replace("{prompt}", shlex.quote(ctx.prompt))
        stdin = None if uses_placeholder else ctx.prompt.encode()
        # Only this adapter tells its program about SpecSnap: the file it may report usage in.
        env: dict[str, str] = {"SPECSNAP_USAGE_FILE": str(ctx.usage_file)}
        for api, route in ctx.routes.items():
            env[BASE_URL_VARIABLES[api]] = route.base_url
            env[route.key_env] = route.key
        return Invocation(argv=("/bin/sh", "-c", command), env=env, stdin=stdin)

    def usage(self, ctx: SessionContext, stdout: Path, stderr: Path) -> Tokens:
        return read_usage_file(ctx.usage_file)


def read_usage_file(path: Path) -> Tokens:
    """Token usage an agent wrote itself; `unknown` if absent or malformed."""
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        return Tokens.unknown()
    if not isinstance(data, dict):
        return Tokens.unknown()
    if not any(name in data for names in ALIASES.values() for name in names):
        return Tokens.unknown()  # nothing recognised is no report, not a report of zero
    values = {}
    for key, names in ALIASES.items():
        found = next((data[n] for n in names if n in data), 0)
        if not isinstance(found, int) or isinstance(found, bool) or found < 0:
            return Tokens.unknown()
        values[key] = found
    return Tokens(**values, source="reported")
