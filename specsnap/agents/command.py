"""The `command` adapter: any program, given as a template.

`--agent-opt cmd='my-agent --prompt {prompt}'` (or `{prompt_file}`; with neither placeholder the
prompt arrives on stdin). The command runs through `/bin/sh -c` in the sandbox, placeholders
shell-quoted. Tokens: if the agent writes JSON to `$SPECSNAP_USAGE_FILE` — keys `input`,
`output`, `cache_write`, `cache_read` (or Anthropic's `input_tokens`, `output_tokens`,
`cache_creation_input_tokens`, `cache_read_input_tokens`) — they are `reported`; else `unknown`.
"""

from __future__ import annotations

import json
import shlex
from dataclasses import dataclass
from pathlib import Path

from specsnap.agents.base import Invocation, SessionContext, register_agent
from specsnap.errors import UsageError
from specsnap.tokens import TokenUsage

ALIASES = {
    "input": ("input", "input_tokens"),
    "output": ("output", "output_tokens"),
    "cache_write": ("cache_write", "cache_creation_input_tokens"),
    "cache_read": ("cache_read", "cache_read_input_tokens"),
}


@register_agent("command")
@dataclass(frozen=True)
class CommandAgent:
    name: str = "command"
    passthrough_env: tuple[str, ...] = ()

    def invocation(self, ctx: SessionContext) -> Invocation:
        template = ctx.options.get("cmd")
        if not template:
            raise UsageError("the command agent needs --agent-opt cmd='COMMAND {prompt}'")
        uses_placeholder = "{prompt}" in template or "{prompt_file}" in template
        command = template.replace("{prompt_file}", shlex.quote(str(ctx.prompt_file)))
        command = command.replace("{prompt}", shlex.quote(ctx.prompt))
        stdin = None if uses_placeholder else ctx.prompt.encode()
        return Invocation(argv=("/bin/sh", "-c", command), stdin=stdin)

    def usage(self, ctx: SessionContext, stdout: Path, stderr: Path) -> TokenUsage:
        return read_usage_file(ctx.usage_file)


def read_usage_file(path: Path) -> TokenUsage:
    """Token usage an agent wrote itself; `unknown` if absent or malformed."""
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        return TokenUsage.unknown()
    if not isinstance(data, dict):
        return TokenUsage.unknown()
    values = {}
    for key, names in ALIASES.items():
        found = next((data[n] for n in names if n in data), 0)
        if not isinstance(found, int) or isinstance(found, bool) or found < 0:
            return TokenUsage.unknown()
        values[key] = found
    return TokenUsage(**values, source="reported")
