"""GitHub Copilot CLI's `--handoff compact`, through a whole SpecSnap run of tier-2 (seed 1)
against its scripted server, as tests/functional/test_handoff.py drives the other CLIs' modes
(its runs, scripts and checks): session 2 runs `copilot --resume=ID -p /compact`, whose
compaction request carries session 1's answer and is served, then resumes the compacted session
with the continuation prompt, every request of which carries the summary instead.

The session's tokens Copilot CLI reports (its event log: the compaction's call in its
`session.compaction_complete` event, the continuation's usage records) equal what the server
served, so the meter and the CLI agree (no note says otherwise)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.functional.cli import card
from tests.functional.test_handoff import (
    Solution,
    check_compacted,
    checked_runs,
    solution,
    tiers,
)

__all__ = ["solution", "tiers"]  # the module's fixtures, shared

pytestmark = [pytest.mark.slow, pytest.mark.agents]


def test_copilot_cli_compacts_the_resumed_session_with_its_own_command(
    tmp_path: Path, tiers: Path, solution: Solution
) -> None:
    run, _, second = checked_runs("copilot", ("compact",), tmp_path, tiers, solution)["compact"]
    compacted = card(run)
    check_compacted(second, compacted)
    # the compaction and the continuation are two requests at least, each with the tools
    assert second.turns_served >= 2
    session = compacted["sessions"][1]
    assert session.get("tokens_reported") == {**session["tokens"], "source": "reported"}, session
    assert not [n for n in session["notes"] if "reported other token counts" in n], session
