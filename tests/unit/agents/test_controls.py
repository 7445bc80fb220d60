"""The controls' handoff: amnesiac's conversation store, its argv under each mode, and what a
resumed or compacted conversation holds."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path

import pytest

from specsnap.agents import control_agent
from specsnap.agents.base import adapter_traits
from specsnap.agents.controls import CONTROL_HANDOFF, amnesiac, notetaker
from tests.support.agent_cli import session_context

SPRINT = """# Sprint

### 1. Round prices to cents (PRC-1)

Round half up to 2 decimals.

### 2. Ship by weight (SHIP-2)

Charge 4.50 per kilogram.
"""


def test_only_the_amnesiac_declares_a_handoff_and_supports_every_mode() -> None:
    assert adapter_traits(amnesiac()).handoff_modes == ("fresh", "resume", "compact")
    assert adapter_traits(notetaker()).handoff_modes == ("fresh",)


@pytest.mark.parametrize(
    ("mode", "tail"),
    [("fresh", []), ("resume", ["--resume", "0123456789abcdef"]),
     ("compact", ["--resume", "0123456789abcdef", "--compact"])],
)  # fmt: skip
def test_the_invocation_names_the_session_to_resume_and_whether_to_compact(
    mode: str, tail: list[str], tmp_path: Path
) -> None:
    ctx = session_context(tmp_path, tmp_path, SPRINT)
    if mode != "fresh":
        ctx = replace(ctx, index=2, handoff=mode, resume_id="0123456789abcdef")
    argv = list(amnesiac().invocation(ctx).argv)
    assert argv[-len(tail) :] == tail if tail else "--resume" not in argv


def test_a_stored_conversation_resumes_whole_and_compacts_to_its_headings(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    control_agent.remember("0123456789abcdef", [SPRINT, "[main 1a2b3c4] note"])
    stored = tmp_path / ".specsnap-control" / "0123456789abcdef.json"
    assert re.fullmatch(CONTROL_HANDOFF.session_file, str(stored.relative_to(tmp_path)))
    assert json.loads(stored.read_text())["conversation"][0] == SPRINT
    assert control_agent.resumed("0123456789abcdef", compact=False) == [
        SPRINT,
        "[main 1a2b3c4] note",
    ]
    (summary,) = control_agent.resumed("0123456789abcdef", compact=True)
    assert control_agent.requirement_ids(summary) == ["PRC-1", "SHIP-2"]
    assert "4.50" not in summary and "half up" not in summary


@pytest.mark.parametrize("content", [None, "not json", '{"conversation": 7}', "[]"])
def test_a_missing_or_unreadable_store_resumes_nothing(
    content: str | None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    if content is not None:
        (tmp_path / ".specsnap-control").mkdir()
        (tmp_path / ".specsnap-control" / "0123456789abcdef.json").write_text(content)
    assert control_agent.resumed("0123456789abcdef", compact=False) == []
