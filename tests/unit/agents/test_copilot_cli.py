"""GitHub Copilot CLI: its headless command line and environment (resumed and compacted too),
and the token usage it reports (its session log's usage records and compactions, else the
summary it prints). The real CLI's runs: tests/functional/test_more_agent_clis.py and
tests/functional/test_handoff.py."""

from __future__ import annotations

import json
import subprocess
from dataclasses import replace
from pathlib import Path

import pytest

from specsnap.agents.base import ApiRoute, SessionContext, adapter_traits, get_agent
from specsnap.agents.cli_usage import parse_copilot_events, parse_copilot_summary
from specsnap.agents.copilot_cli import CopilotCli
from specsnap.errors import UsageError
from specsnap.scorecard.model import Tokens
from specsnap.sessions.handoff import carry_state
from tests.support.agent_cli import session_context

RESUMED = "0123abcd-0000-4000-8000-00000000beef"
ROUTE = ApiRoute("http://127.0.0.1:4000/openai/v1", "OPENAI_API_KEY", "specsnap-placeholder")


@pytest.fixture
def ctx(tmp_path: Path) -> SessionContext:
    bare = session_context(tmp_path, tmp_path / "sandbox", "Do the sprint.", bin="/opt/copilot")
    return replace(bare, routes={"openai": ROUTE})


def test_it_is_registered_metered_as_openai_without_web_tools_and_resumes_or_compacts() -> None:
    traits = adapter_traits(get_agent("copilot-cli"))
    assert (traits.apis, traits.web_tools, traits.handoff_modes) == (
        ("openai",),
        "disabled",
        ("fresh", "resume", "compact"),
    )


def test_the_prompt_runs_headless_with_every_tool_allowed_and_no_questions(
    ctx: SessionContext,
) -> None:
    argv = CopilotCli().invocation(replace(ctx, options={**ctx.options, "extra_args": "--x"})).argv
    assert argv[:3] == ("/opt/copilot", "-p", ctx.prompt)
    assert {"--allow-all-tools", "--no-ask-user", "--no-auto-update"} <= set(argv)
    assert argv[-1] == "--x"


def test_a_resumed_session_names_the_cut_off_one_by_its_id(ctx: SessionContext) -> None:
    argv = CopilotCli().invocation(replace(ctx, handoff="resume", resume_id=RESUMED)).argv
    assert f"--resume={RESUMED}" in argv and argv[1:3] == ("-p", ctx.prompt)
    assert not [a for a in CopilotCli().invocation(ctx).argv if a.startswith("--resume")]


def fake_copilot(tmp_path: Path, status: int) -> Path:
    """A stand-in executable that logs each command line it is given, one per line (the
    sh -c around the real CLI is what is tested here; the real CLI: the functional test)."""
    script = tmp_path / "copilot"
    script.write_text(
        f'#!/bin/sh\nprintf "%s|" "$@" >> "$0.calls"; echo >> "$0.calls"\nexit {status}\n'
    )
    script.chmod(0o755)
    return script


@pytest.mark.parametrize("status", [0, 1])
def test_a_compacted_session_compacts_with_its_own_command_then_resumes_with_the_prompt(
    ctx: SessionContext, tmp_path: Path, status: int
) -> None:
    """Two `-p` runs of the resumed session, the second only once the first compacted."""
    cli = fake_copilot(tmp_path, status)
    compact = replace(ctx, handoff="compact", resume_id=RESUMED, options={"bin": str(cli)})
    prompt = "Go on: it's $HOME's \"sprint\"; `true`"
    invocation = CopilotCli().invocation(replace(compact, prompt=prompt))
    assert invocation.argv[:2] == ("/bin/sh", "-c") and invocation.stdin is None
    done = subprocess.run(invocation.argv, capture_output=True, text=True, check=False)
    options = f"--resume={RESUMED}|--allow-all-tools|--no-ask-user|--no-auto-update|--no-color|"
    runs = [f"-p|/compact|{options}", f"-p|{prompt}|{options}"]
    assert done.returncode == status
    assert Path(f"{cli}.calls").read_text().splitlines() == runs[: 2 - status]
    resumed = CopilotCli().invocation(replace(compact, handoff="resume"))
    fresh = CopilotCli().invocation(replace(compact, resume_id=None))
    assert resumed.argv[0] == fresh.argv[0] == str(cli)


def test_only_its_session_folders_move_and_the_log_names_the_session(tmp_path: Path) -> None:
    previous = tmp_path / "old"
    state = previous / ".copilot" / "session-state"
    for name in (f"{RESUMED}/events.jsonl", f"{RESUMED}/workspace.yaml",
                 f".session-operation-locks/{RESUMED}.lock"):  # fmt: skip
        (state / name).parent.mkdir(parents=True, exist_ok=True)
        (state / name).write_text("x")
    for name in ("session-store.db", "config.json", "logs/process-1.log"):
        (previous / ".copilot" / name).parent.mkdir(parents=True, exist_ok=True)
        (previous / ".copilot" / name).write_text("x")
    carried = carry_state("resume", CopilotCli.handoff, previous, tmp_path / "new")
    assert (carried.session_id, carried.error) == (RESUMED, None)
    assert all(f.startswith(".copilot/session-state/") for f in carried.files)
    assert not (tmp_path / "new" / ".copilot" / "session-store.db").exists()


def test_offline_its_state_in_the_fresh_home_and_the_meter_as_its_provider(
    ctx: SessionContext,
) -> None:
    env = CopilotCli().invocation(ctx).env
    assert env["COPILOT_OFFLINE"] == "true"  # no sign-in, telemetry, web tools or update
    assert env["COPILOT_HOME"] == str(ctx.home / ".copilot")
    assert env["COPILOT_PROVIDER_TYPE"] == "openai"
    assert env["COPILOT_PROVIDER_BASE_URL"] == ROUTE.base_url
    assert env["COPILOT_PROVIDER_API_KEY"] == env["OPENAI_API_KEY"] == ROUTE.key
    assert env["COPILOT_MODEL"] == "gpt-fake-1"


def test_unmetered_the_provider_url_is_an_option_and_the_key_passes_through(
    ctx: SessionContext,
) -> None:
    options = {"bin": "/opt/copilot", "base_url": "http://127.0.0.1:9/v1", "model": "m-2"}
    env = CopilotCli().invocation(replace(ctx, routes={}, options=options)).env
    assert env["COPILOT_PROVIDER_BASE_URL"] == "http://127.0.0.1:9/v1"
    assert env["COPILOT_MODEL"] == "m-2" and "COPILOT_PROVIDER_API_KEY" not in env
    assert "COPILOT_PROVIDER_API_KEY" in CopilotCli().passthrough_env


def test_without_a_bin_option_or_copilot_on_path_the_error_says_how_to_fix(
    ctx: SessionContext,
) -> None:
    with pytest.raises(UsageError, match="bin=/path/to/copilot"):
        CopilotCli().invocation(replace(ctx, options={}, path=str(ctx.home)))


def usage_record(call: str, inp: int, out: int, read: int, write: int = 0) -> str:
    usage = {"model": "gpt-fake-1", "inputTokens": inp, "outputTokens": out,
             "cacheReadTokens": read, "cacheWriteTokens": write, "apiCallId": call}  # fmt: skip
    return json.dumps({"type": "session.usage_record", "data": {"usage": usage}})


def test_each_usage_record_counts_once_and_input_excludes_cache_reads() -> None:
    text = "\n".join(
        [
            json.dumps({"type": "user.message", "data": {"content": '"inputTokens": 99'}}),
            usage_record("chatcmpl-1", 3400, 120, 2500),
            usage_record("chatcmpl-1", 3400, 120, 2500),  # the same call again
            usage_record("chatcmpl-3", 300, 30, 0, 7),
            usage_record("chatcmpl-4", 900, 9, 0)[:50],  # torn by the cutoff
        ]
    )
    assert parse_copilot_events(text) == Tokens(1200, 150, 7, 2500, "reported")
    assert parse_copilot_events('{"type":"assistant.message"}\n').source == "unknown"


def test_a_resumed_log_counts_only_the_records_after_its_last_resume() -> None:
    resume = json.dumps({"type": "session.resume", "data": {"eventCount": 9}})
    before = usage_record("chatcmpl-1", 900, 20, 0)
    after = usage_record("chatcmpl-1", 3400, 120, 2500)  # a new server may reuse an id
    start = json.dumps({"type": "session.start", "data": {}})
    text = "\n".join([start, before, resume, after])
    assert parse_copilot_events(text) == Tokens(900, 120, 0, 2500, "reported")
    assert parse_copilot_events("\n".join([before, resume])).source == "unknown"


def compaction(attempt: str, inp: int, out: int, read: int, trigger: str = "manual") -> str:
    used = {"requestCount": 1, "inputTokens": inp, "outputTokens": out, "cacheReadTokens": read,
            "cacheWriteTokens": 0, "model": "gpt-fake-1"}  # fmt: skip
    data = {"success": True, "outcome": "applied", "compactionAttemptId": attempt,
            "trigger": trigger, "compactionTokensUsed": used}  # fmt: skip
    return json.dumps({"type": "session.compaction_complete", "data": data})


def test_compactions_count_and_a_compact_step_counts_with_the_resume_after_it() -> None:
    """`--handoff compact`: `-p /compact` (its call in the compaction event, no usage record),
    then the resume with the prompt; both are this run's, session 1 is not."""
    start = json.dumps({"type": "session.start", "data": {}})
    resume = json.dumps({"type": "session.resume", "data": {}})
    asked = json.dumps({"type": "user.message", "data": {"content": "Go on."}})
    session_one = [start, asked, usage_record("chatcmpl-1", 900, 20, 0)]
    compacted = [resume, compaction("c-1", 600, 40, 100)]
    continued = [resume, asked, usage_record("chatcmpl-1", 3400, 120, 2500)]
    both = Tokens(500 + 900, 40 + 120, 0, 100 + 2500, "reported")
    assert parse_copilot_events("\n".join([*session_one, *compacted, *continued])) == both
    # a later resume (session 3) is a run of its own: session 2 asked its prompt
    later = [resume, asked, usage_record("chatcmpl-9", 50, 5, 0)]
    text = "\n".join([*session_one, *compacted, *continued, *later])
    assert parse_copilot_events(text) == Tokens(50, 5, 0, 0, "reported")
    # a compaction after a prompt (interactive), or an automatic one, does not carry over
    prompted = [resume, asked, compaction("c-2", 600, 40, 0)]
    auto = [resume, compaction("c-3", 600, 40, 0, trigger="auto")]
    for before in (prompted, auto):
        assert parse_copilot_events("\n".join([*before, *continued])) == Tokens(
            900, 120, 0, 2500, "reported"
        )
    assert parse_copilot_events("\n".join(auto)) == Tokens(600, 40, 0, 0, "reported")


def test_the_summary_line_is_read_rounded_and_cached_tokens_apart() -> None:
    summary = "Done.\n\nChanges    +0 -0\nDuration   0s\nTokens     ↑ 3.7k (2.5k cached) • ↓ 150\n"
    assert parse_copilot_summary(summary) == Tokens(1200, 150, 0, 2500, "reported")
    assert parse_copilot_summary("Tokens     ↑ 1.2m • ↓ 80\n") == Tokens(
        1_200_000, 80, 0, 0, "reported"
    )
    assert parse_copilot_summary("● bash\n  │ echo Tokens ↑ 5\n").source == "unknown"


def test_usage_reads_every_session_log_and_the_summary_only_without_one(
    ctx: SessionContext, tmp_path: Path
) -> None:
    stdout = tmp_path / "stdout.log"
    stdout.write_text("Tokens     ↑ 9k • ↓ 900\n")
    assert CopilotCli().usage(ctx, stdout, stdout) == Tokens(9000, 900, 0, 0, "reported")
    for n, record in enumerate((usage_record("a", 3400, 120, 2500), usage_record("b", 300, 30, 0))):
        log = ctx.home / ".copilot" / "session-state" / f"s{n}" / "events.jsonl"
        log.parent.mkdir(parents=True)
        log.write_text(record + "\n")
    assert CopilotCli().usage(ctx, stdout, stdout) == Tokens(1200, 150, 0, 2500, "reported")
    assert CopilotCli().usage(ctx, tmp_path / "none", tmp_path / "none").source == "reported"


def test_a_resumed_session_never_reports_its_summary_which_counts_the_earlier_ones(
    ctx: SessionContext, tmp_path: Path
) -> None:
    stdout = tmp_path / "stdout.log"
    stdout.write_text("Tokens     ↑ 9k • ↓ 900\n")
    resumed = replace(ctx, handoff="resume", resume_id=RESUMED)
    assert CopilotCli().usage(resumed, stdout, stdout).source == "unknown"
