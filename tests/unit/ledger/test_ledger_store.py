"""The ledger file: appended atomically, read back exactly, refused when broken."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from specsnap.ledger.chain import Outcome
from specsnap.ledger.store import (
    LedgerError,
    append_candidate,
    read_ledger,
    stage_required,
    unlocked_by,
)
from tests.support.ledgers import candidate


def fixed_now() -> datetime:
    return datetime(2025, 6, 1, 12, 0, 0, tzinfo=UTC)


def test_a_missing_ledger_is_empty_and_locked(tmp_path: Path) -> None:
    path = tmp_path / "ledger.jsonl"
    assert read_ledger(path).ledger.entries == ()
    assert stage_required(path) == 1 and unlocked_by(path) is None


def test_appends_are_lines_that_read_back_to_the_same_entries(tmp_path: Path) -> None:
    path = tmp_path / "ledger.jsonl"
    first = append_candidate(path, candidate(seed=1, net=0.5, tes=0.5), fixed_now)
    second = append_candidate(path, candidate(seed=2), fixed_now)
    assert (first.outcome, second.outcome) == (Outcome.APPENDED, Outcome.APPENDED)
    lines = path.read_bytes().splitlines(keepends=True)
    assert len(lines) == 2 and all(line.endswith(b"\n") for line in lines)
    found = read_ledger(path)
    assert found.intact
    assert found.ledger.entries == (first.entry, second.entry)
    assert found.ledger.entries[0].recorded_at == "2025-06-01T12:00:00Z"
    assert stage_required(path) == 2
    assert unlocked_by(path) == second.entry
    assert not list(tmp_path.glob(".ledger.jsonl.tmp"))


def test_a_refused_candidate_leaves_the_file_as_it_was(tmp_path: Path) -> None:
    path = tmp_path / "ledger.jsonl"
    append_candidate(path, candidate(seed=1, net=0.5, tes=0.5), fixed_now)
    before = path.read_bytes()
    judgement = append_candidate(path, candidate(seed=2, stage=2), fixed_now)
    assert judgement.outcome is Outcome.REFUSED
    assert path.read_bytes() == before


def test_an_edited_line_is_reported_and_nothing_is_appended_or_decided(tmp_path: Path) -> None:
    path = tmp_path / "ledger.jsonl"
    for seed in (1, 2):
        append_candidate(path, candidate(seed=seed, net=0.5, tes=0.5), fixed_now)
    path.write_bytes(path.read_bytes().replace(b'"net_retention":0.5', b'"net_retention":1.0', 1))
    found = read_ledger(path)
    assert not found.intact
    assert found.problems[0].startswith("entry #1: previous is ")
    with pytest.raises(LedgerError, match="the ledger is broken"):
        append_candidate(path, candidate(seed=3), fixed_now)
    with pytest.raises(LedgerError):
        stage_required(path)


def test_a_truncated_last_line_is_reported(tmp_path: Path) -> None:
    path = tmp_path / "ledger.jsonl"
    append_candidate(path, candidate(seed=1, net=0.5, tes=0.5), fixed_now)
    path.write_bytes(path.read_bytes()[:-20])
    problems = read_ledger(path).problems
    assert problems[0].endswith("the last line is incomplete (no final newline)")
    assert problems[1].startswith("line 1: not JSON")
