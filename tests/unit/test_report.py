"""The report step: a scorecard built from a run's settings, session records and grade."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from specsnap.errors import InputError
from specsnap.grading import Grade
from specsnap.render.markdown import render_markdown
from specsnap.report import build_scorecard, write_report
from specsnap.rundir import Run, recorded_session, recorded_sessions
from specsnap.scorecard.io import dump_scorecard, load_scorecard, scorecard_document
from specsnap.scorecard.model import Gate, Grading, Requirement, Session
from specsnap.scorecard.model import TestResult as Outcome
from specsnap.scorecard.receipt import scorecard_digest
from specsnap.scorecard.work import RISKY_MOVES_MAX, TARGET_MAX
from specsnap.tier.model import Tier
from tests.support.scorecards import fixture_document


@dataclass(frozen=True)
class Settings:
    run_dir: Path
    seed: int = 5
    agent: str = "command"
    agent_options: dict[str, str] = field(default_factory=lambda: {"z": "1", "cmd": "a b"})
    budget_tokens: int | None = None
    tier_sha256: str = "a" * 64
    agent_account: str = ""
    stage: int = 1
    handoff: str = "fresh"
    agent_account: str = ""


def session_documents() -> list[dict[str, Any]]:
    sessions: list[dict[str, Any]] = fixture_document("tier-4-seed-1")["sessions"][:2]
    for record in sessions:
        record["agent"] = "command"  # records carry more than a scorecard shows
    return sessions


def records() -> list[Session]:
    """The sessions as their records state them (specsnap.rundir.recorded_session)."""
    return [recorded_session(r, "session.json").session for r in session_documents()]


def grade(passed: bool = True) -> Grade:
    tests = (Outcome("test_unit_1.py::test_pounds", "passed" if passed else "failed"),)
    gate = Gate(True, True, True, True, True, (), (), (), ())
    requirements = (
        Requirement("UNIT-1", "Pounds", "units", passed, tests),
        Requirement("REP-1", "Kilograms", "report", True, tests),
    )
    grading = Grading(None, None, None, None, None, None, None)
    return Grade("c" * 40, "d" * 64, requirements, gate, grading)


def test_the_scorecard_is_built_from_settings_records_and_grade(
    tier90: Tier, tmp_path: Path
) -> None:
    card = build_scorecard(
        Settings(tmp_path), tier90, records(), grade(), 1.23, unofficial=("budget",)
    )
    assert (card.tier_id, card.tier_name, card.seed, card.agent.name) == (
        "tier-90",
        "Fixture: kitchen weights",
        5,
        "command",
    )
    assert list(card.agent.options) == ["cmd", "z"]  # sorted, so the bytes do not depend on order
    assert card.official is False and card.unofficial_reasons[0] == "budget"
    assert [s.cutoff.reason for s in card.sessions] == ["source-edit", "commit-attempt"]
    assert card.scores.raw_retention == 1.0 and card.scores.budget == tier90.budget_tokens
    assert card.scores.tes is None  # the records' tokens are unknown
    assert card.grading.run_problem is None and card.grading.tests_collected is None
    assert card.timings.grading_s == 1.23
    assert (card.receipt.head_commit, card.receipt.sandbox_tree_sha256) == ("c" * 40, "d" * 64)
    document = scorecard_document(card)
    assert card.receipt.scorecard_sha256 == scorecard_digest(document)


def test_the_same_inputs_give_the_same_bytes(tier90: Tier, tmp_path: Path) -> None:
    first = build_scorecard(Settings(tmp_path), tier90, records(), grade(), 1.0)
    again = build_scorecard(Settings(tmp_path), tier90, records(), grade(), 1.0)
    assert dump_scorecard(first) == dump_scorecard(again)


def test_a_malformed_record_names_its_file_and_key(tier90: Tier, tmp_path: Path) -> None:
    """A session record is read once, into typed values, before any scorecard is built: a
    malformed one is bad input naming its file and key."""
    broken = session_documents()
    broken[1]["exit"]["status"] = "vanished"
    del broken[1]["tokens"]
    run = Run(tmp_path, str(tier90.root), tier90.id, "a" * 64, 5, "command", sessions_done=[1, 2])
    for index, document in enumerate(broken, start=1):
        run.session_dir(index).mkdir(parents=True)
        (run.session_dir(index) / "session.json").write_text(json.dumps(document))
    with pytest.raises(InputError) as caught:
        recorded_sessions(run)
    (problem,) = caught.value.problems
    assert (problem.file, problem.key, problem.value) == (
        f"{tmp_path}/sessions/2/session.json",
        "tokens",
        "nothing",
    )


def test_the_report_is_written_as_json_and_markdown(tier90: Tier, tmp_path: Path) -> None:
    card = build_scorecard(Settings(tmp_path), tier90, records(), grade(), 1.0)
    write_report(card, tmp_path)
    assert load_scorecard(tmp_path / "scorecard.json") == card
    assert (tmp_path / "scorecard.md").read_text() == render_markdown(card)
    assert json.loads((tmp_path / "scorecard.json").read_text())["schema_version"] == 3
    assert not list(tmp_path.glob("*.tmp"))


def test_a_scorecard_the_schema_refuses_is_never_written(tier90: Tier, tmp_path: Path) -> None:
    bad = build_scorecard(Settings(tmp_path, seed=5), tier90, records(), grade(), -1.0)
    with pytest.raises(InputError, match=r"timings\.grading_s"):
        write_report(bad, tmp_path)
    assert not (tmp_path / "scorecard.json").exists()


def work_json(**changes: Any) -> dict[str, Any]:
    """A work.json as specsnap.trajectory.work writes it: a metered session, an unmetered one,
    a shell move and a history move."""
    trajectory = {
        "turns": 7,
        "actions": {"read": 3, "edit": 1, "shell": 3, "search": 0, "other": 0},
        "test_runs": 2,
        "longest_failing_streak": 2,
        "repeated_failing_command": "pytest -q",
        "tokens_before_first_edit": 5120,
        "rediscovered": ["units/convert.py", "units/__init__.py"],
    }
    document = {
        "sessions": [
            {"session": 1, "trajectory": trajectory},
            {"session": 2, "trajectory": None, "why": "unavailable: the session was not metered"},
        ],
        "risky_moves": [
            {
                "session": 1,
                "where": "step 4",
                "target": "rm -rf build " + "x" * 300,
                "kind": "rm-rf",
            },
            {
                "session": None,
                "where": "0123456789ab",
                "target": "tests/test_a.py",
                "kind": "test-deleted",
            },
        ],
    }
    document.update(changes)
    return document


def write_work(run_dir: Path, document: Any) -> None:
    (run_dir / "work.json").write_text(json.dumps(document), encoding="utf-8")


def test_how_the_work_went_comes_from_work_json_and_changes_nothing_else(
    tier90: Tier, tmp_path: Path
) -> None:
    without = scorecard_document(
        build_scorecard(Settings(tmp_path), tier90, records(), grade(), 1.0)
    )
    write_work(tmp_path, work_json())
    card = build_scorecard(Settings(tmp_path), tier90, records(), grade(), 1.0)
    assert card.work is not None
    first, second = card.work.sessions
    assert first.trajectory is not None and second.trajectory is None
    assert (first.trajectory.turns, first.trajectory.rediscovered_files) == (7, 2)
    assert first.trajectory.actions["shell"] == 3 and second.why is not None
    shell, history = card.work.risky_moves
    assert (shell.kind, shell.file, history.file, history.command) == (
        "rm-rf",
        None,
        "tests/test_a.py",
        None,
    )
    assert shell.command is not None and len(shell.command) == TARGET_MAX  # bounded
    assert card.work.risky_moves_total == 2
    document = scorecard_document(card)
    assert "work" not in without and document.pop("work")
    for receipt in (document["receipt"], without["receipt"]):
        receipt.pop("scorecard_sha256")  # the digest covers the new section
    assert document == without  # scores, gate, receipt: all as without work.json
    write_report(card, tmp_path)  # the schema takes it, and it reads back the same
    assert load_scorecard(tmp_path / "scorecard.json") == card


def test_without_work_json_the_scorecard_has_no_work_section(tier90: Tier, tmp_path: Path) -> None:
    card = build_scorecard(Settings(tmp_path), tier90, records(), grade(), 1.0)
    assert card.work is None and "work" not in scorecard_document(card)


def test_risky_moves_beyond_the_list_are_counted(tier90: Tier, tmp_path: Path) -> None:
    move = {"session": 2, "where": "step 1", "target": "git clean -fd", "kind": "git-clean"}
    write_work(tmp_path, work_json(risky_moves=[move] * (RISKY_MOVES_MAX + 5)))
    card = build_scorecard(Settings(tmp_path), tier90, records(), grade(), 1.0)
    assert card.work is not None
    assert (len(card.work.risky_moves), card.work.risky_moves_total) == (RISKY_MOVES_MAX, 105)


@pytest.mark.parametrize(
    ("document", "key", "value"),
    [
        (
            work_json(
                risky_moves=[{"session": 1, "where": "step 1", "target": "x", "kind": "nuke"}]
            ),
            "risky_moves[0].kind",
            "'nuke'",
        ),
        (
            work_json(risky_moves=[{"session": 1, "where": "step 1", "kind": "rm-rf"}]),
            "risky_moves[0].target",
            "nothing",
        ),
        (
            work_json(sessions=[{"session": 1, "trajectory": {"turns": 1}}]),
            "sessions[0].trajectory.rediscovered",
            "nothing",
        ),
        (
            work_json(sessions=[{"session": "one", "trajectory": None}]),
            "sessions[0].session",
            "'one'",
        ),
        ({"sessions": []}, "risky_moves", "nothing"),
        ([], "(top level)", "list"),
    ],
)
def test_a_malformed_work_json_names_its_file_and_key(
    tier90: Tier, tmp_path: Path, document: Any, key: str, value: str
) -> None:
    write_work(tmp_path, document)
    with pytest.raises(InputError) as caught:
        build_scorecard(Settings(tmp_path), tier90, records(), grade(), 1.0)
    (problem,) = caught.value.problems
    assert (problem.file, problem.key, problem.value) == (str(tmp_path / "work.json"), key, value)


def test_a_work_json_that_is_not_json_names_its_file(tier90: Tier, tmp_path: Path) -> None:
    (tmp_path / "work.json").write_text('{"sessions": [', encoding="utf-8")
    with pytest.raises(InputError) as caught:
        build_scorecard(Settings(tmp_path), tier90, records(), grade(), 1.0)
    (problem,) = caught.value.problems
    assert problem.file == str(tmp_path / "work.json") and "unreadable JSON" in problem.value
