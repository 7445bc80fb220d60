"""grok-cli: its headless command line and environment (nothing written into HOME), what it
declares, and its token report (none). The real CLI's run: tests/functional/test_more_agent_clis.py.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from specsnap.agents.base import ApiRoute, SessionContext, adapter_traits, get_agent
from specsnap.agents.grok_cli import GrokCli
from specsnap.errors import UsageError
from tests.support.agent_cli import session_context

ROUTE = ApiRoute("http://127.0.0.1:4000/openai/v1", "OPENAI_API_KEY", "specsnap-placeholder")


@pytest.fixture
def ctx(tmp_path: Path) -> SessionContext:
    bare = session_context(tmp_path, tmp_path / "sandbox", "Do the sprint.", bin="/opt/grok")
    return replace(bare, routes={"openai": ROUTE})


def test_it_is_registered_metered_as_openai_fresh_only_and_says_web_search_stays() -> None:
    traits = adapter_traits(get_agent("grok-cli"))
    assert (traits.apis, traits.handoff_modes) == (("openai",), ("fresh",))
    assert traits.web_tools == "not-disableable"  # xAI's live search for grok models


def test_the_meter_is_its_url_and_the_placeholder_its_key_never_a_flag(
    ctx: SessionContext,
) -> None:
    """Given as flags, the key and URL would be saved into ~/.grok/user-settings.json."""
    invocation = GrokCli().invocation(replace(ctx, options={**ctx.options, "extra_args": "-x 1"}))
    assert invocation.argv == ("/opt/grok", "-p", ctx.prompt, "-x", "1")
    assert invocation.env == {
        "GROK_MODEL": "gpt-fake-1",
        "GROK_BASE_URL": ROUTE.base_url,
        "GROK_API_KEY": ROUTE.key,
        "OPENAI_API_KEY": ROUTE.key,
    }
    assert not list(ctx.home.iterdir())


def test_unmetered_the_url_is_an_option_and_the_key_passes_through(ctx: SessionContext) -> None:
    options = {"bin": "/opt/grok", "base_url": "http://127.0.0.1:9/v1", "model": "grok-code-fast-1"}
    env = GrokCli().invocation(replace(ctx, routes={}, options=options)).env
    assert env == {"GROK_MODEL": "grok-code-fast-1", "GROK_BASE_URL": "http://127.0.0.1:9/v1"}
    assert "GROK_API_KEY" in GrokCli().passthrough_env


def test_without_grok_on_path_the_error_says_how_to_fix(ctx: SessionContext) -> None:
    with pytest.raises(UsageError, match="bin=/path/to/grok"):
        GrokCli().invocation(replace(ctx, options={}, path=str(ctx.home)))


def test_its_output_carries_no_tokens_so_only_the_meter_counts(
    ctx: SessionContext, tmp_path: Path
) -> None:
    stdout = tmp_path / "stdout.log"
    stdout.write_text('{"role":"assistant","content":"Done.","usage":{"prompt_tokens":5}}\n')
    assert GrokCli().usage(ctx, stdout, stdout).source == "unknown"
