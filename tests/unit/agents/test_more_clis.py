"""opencode, Qwen Code and mini-swe-agent: the handoff modes each declares, the command line of a
resumed session, and the session id SpecSnap finds in the state it moves (the CLIs' real runs:
tests/functional/test_handoff.py)."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from specsnap.agents.base import SessionContext, adapter_traits, require_handoff
from specsnap.agents.mini_swe_agent import MiniSweAgent
from specsnap.agents.opencode import OPENCODE_DB, OpenCode
from specsnap.agents.qwen_code import QwenCode
from specsnap.errors import UsageError
from specsnap.sessions.handoff import carry_state
from tests.support.agent_cli import session_context

RESUMED = "0123abcd-0000-4000-8000-00000000beef"


@pytest.fixture
def ctx(tmp_path: Path) -> SessionContext:
    bare = session_context(
        tmp_path,
        tmp_path / "sandbox",
        "Continue from the current workspace state.",
        bin="/opt/agent",
    )
    return replace(bare, index=2)


def test_each_declares_the_modes_its_cli_can_do_headless() -> None:
    assert adapter_traits(OpenCode()).handoff_modes == ("fresh", "resume")
    assert adapter_traits(QwenCode()).handoff_modes == ("fresh", "resume", "compact")
    assert adapter_traits(MiniSweAgent()).handoff_modes == ("fresh",)
    with pytest.raises(UsageError, match="does not support --handoff compact"):
        require_handoff(OpenCode(), "compact")
    with pytest.raises(UsageError, match="does not support --handoff resume"):
        require_handoff(MiniSweAgent(), "resume")


def test_opencode_continues_the_one_session_of_the_moved_store(ctx: SessionContext) -> None:
    resumed = OpenCode().invocation(replace(ctx, handoff="resume", resume_id="opencode.db")).argv
    fresh = OpenCode().invocation(ctx).argv
    assert "--continue" in resumed and "--continue" not in fresh
    assert resumed[-1] == fresh[-1] == ctx.prompt


def test_qwen_resumes_the_cut_off_session_by_its_id(ctx: SessionContext) -> None:
    resumed = QwenCode().invocation(replace(ctx, handoff="resume", resume_id=RESUMED)).argv
    assert resumed[resumed.index("--resume") + 1] == RESUMED and resumed[-1] == ctx.prompt
    assert "--resume" not in QwenCode().invocation(ctx).argv


def test_qwen_compacts_its_resumed_session_before_the_prompt(ctx: SessionContext) -> None:
    """Its stream-json session opened by `initialize`, so the messages run in the order sent."""
    compacted = QwenCode().invocation(replace(ctx, handoff="compact", resume_id=RESUMED))
    argv = compacted.argv
    assert argv[argv.index("--resume") + 1] == RESUMED and ctx.prompt not in argv
    assert argv[argv.index("--input-format") + 1] == "stream-json"
    lines = [json.loads(line) for line in (compacted.stdin or b"").decode().splitlines()]
    assert lines[0]["type"] == "control_request"
    assert lines[0]["request"] == {"subtype": "initialize"}
    assert [m["message"]["content"] for m in lines[1:]] == ["/compress", ctx.prompt]
    assert QwenCode().invocation(ctx).stdin is None


def store(home: Path, files: list[str]) -> Path:
    for name in files:
        (home / name).parent.mkdir(parents=True, exist_ok=True)
        (home / name).write_text("x")
    return home


def test_only_the_declared_store_moves_and_names_the_session(tmp_path: Path) -> None:
    previous = store(
        tmp_path / "old",
        [
            OPENCODE_DB,
            OPENCODE_DB + "-wal",
            OPENCODE_DB + "-shm",
            ".local/share/opencode/log/opencode.log",
            ".config/opencode/opencode.json",
            f".qwen/projects/-tmp-run-sandbox/chats/{RESUMED}.jsonl",
            ".qwen/settings.json",
        ],
    )
    opencode = carry_state("resume", OpenCode.handoff, previous, tmp_path / "a")
    assert opencode.files == [OPENCODE_DB, OPENCODE_DB + "-wal"]
    assert (opencode.session_id, opencode.error) == ("opencode.db", None)
    qwen = carry_state("resume", QwenCode.handoff, previous, tmp_path / "b")
    assert qwen.files == [f".qwen/projects/-tmp-run-sandbox/chats/{RESUMED}.jsonl"]
    assert (qwen.session_id, qwen.error) == (RESUMED, None)


def test_a_store_without_the_session_is_an_error_not_a_fresh_session(tmp_path: Path) -> None:
    previous = store(tmp_path / "old", [".qwen/projects/p/chats/notes.txt", OPENCODE_DB + "-wal"])
    for adapter in (OpenCode(), QwenCode()):
        carried = carry_state("resume", adapter.handoff, previous, tmp_path / adapter.name)
        assert carried.session_id is None and carried.error and "no session" in carried.error
