"""The adapter for mini-swe-agent (`mini`), whose one tool is bash and whose model client is
litellm speaking OpenAI's Chat Completions. Its run config goes into the session's fresh HOME
(never the sandbox), and so does its global config directory and its trajectory, the file its
own token report is read from.

Options (`--agent-opt KEY=VALUE`): `bin`, `model` (default `gpt-fake-1`: the meter forwards any
name; litellm gets it as `openai/MODEL`) and `extra_args`, as for the other CLIs. docs/agents.md
has the details.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from specsnap.agents.base import Invocation, SessionContext, Tokens
from specsnap.agents.cli_usage import parse_mini_trajectory
from specsnap.agents.clis import cli_executable, extra_args, read_output

__all__ = ["MiniSweAgent", "parse_mini_trajectory"]

DEFAULT_MODEL = "gpt-fake-1"

#: Where in the session's HOME mini keeps its global config and writes its trajectory.
CONFIG_DIR = Path(".config") / "mini-swe-agent"
TRAJECTORY = CONFIG_DIR / "trajectory.json"
RUN_CONFIG = CONFIG_DIR / "specsnap.yaml"

#: mini without a prompt: the first-run setup wizard skipped (MSWEA_CONFIGURED), and litellm's
#: price list read from its own copy rather than fetched; a model the list does not know costs 0
#: instead of stopping the run, which also disables mini's cost limit for it.
MINI_ENV: Mapping[str, str] = {
    "MSWEA_CONFIGURED": "true",
    "MSWEA_SILENT_STARTUP": "1",
    "MSWEA_COST_TRACKING": "ignore_errors",
    "LITELLM_LOCAL_MODEL_COST_MAP": "True",
}


class MiniSweAgent:
    """mini-swe-agent (`mini --yolo --exit-immediately -t PROMPT`): no confirmation of its
    commands, no question when it wants to finish; metered as an OpenAI Chat Completions client
    (litellm's `api_base` at the meter)."""

    name: str = "mini-swe-agent"
    apis: tuple[str, ...] = ("openai",)
    web_tools: str = "disabled"
    passthrough_env: tuple[str, ...] = ("OPENAI_API_KEY", "OPENAI_BASE_URL")

    def invocation(self, ctx: SessionContext) -> Invocation:
        """The command line; also writes the run config (model, meter) into the fresh HOME."""
        route = ctx.routes.get("openai")
        base_url = route.base_url if route is not None else None
        config = mini_config(ctx.options.get("model", DEFAULT_MODEL), base_url)
        (ctx.home / CONFIG_DIR).mkdir(parents=True, exist_ok=True)
        (ctx.home / RUN_CONFIG).write_text(json.dumps(config, indent=2) + "\n", encoding="utf-8")
        argv = [
            cli_executable(ctx, "mini"),
            "--yolo",
            "--exit-immediately",
            "--cost-limit",
            "0",
            "-c",
            "mini.yaml",
            "-c",
            str(ctx.home / RUN_CONFIG),
            "-o",
            str(ctx.home / TRAJECTORY),
            *extra_args(ctx),
            "-t",
            ctx.prompt,
        ]
        env = {**MINI_ENV, "MSWEA_GLOBAL_CONFIG_DIR": str(ctx.home / CONFIG_DIR)}
        if route is not None:
            env |= {route.key_env: route.key, "OPENAI_API_KEY": route.key}
        return Invocation(tuple(argv), env)

    def usage(self, ctx: SessionContext, stdout: Path, stderr: Path) -> Tokens:
        return parse_mini_trajectory(read_output(ctx.home / TRAJECTORY))


def mini_config(model: str, base_url: str | None) -> dict[str, Any]:
    """mini's run config (JSON is YAML): the model through litellm's OpenAI provider, at the
    meter when there is one."""
    kwargs = {"api_base": base_url} if base_url else {}
    return {"model": {"model_name": f"openai/{model}", "model_kwargs": kwargs}}
