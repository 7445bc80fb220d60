"""The state that moves between sessions under `--handoff resume|compact`: only the declared
paths, no symlink followed, bounded, digested stably; and an unsupported mode refused."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from specsnap.agents.base import HandoffSupport, get_agent, require_handoff
from specsnap.agents.clis import CLAUDE_HANDOFF
from specsnap.errors import UsageError
from specsnap.rundir import RunSpec
from specsnap.sessions import handoff
from specsnap.sessions.handoff import carry_state

SESSION = "0123abcd-0000-4000-8000-00000000beef"
STORE = f".claude/projects/-tmp-run-sandbox/{SESSION}.jsonl"


def cut_off_home(root: Path) -> Path:
    """A retired HOME with a Claude Code store and other things that must not move."""
    home = root / "previous"
    (home / STORE).parent.mkdir(parents=True)
    (home / STORE).write_text('{"type":"user"}\n')
    (home / ".claude" / "settings.json").write_text("{}")  # in .claude, outside the store
    (home / "notes.md").write_text("a note the agent left")
    (home / ".claude" / "projects" / "todo.txt").write_text("kept: inside the store")
    return home


def test_only_the_declared_paths_move_and_the_session_id_is_found(tmp_path: Path) -> None:
    previous, home = cut_off_home(tmp_path), tmp_path / "home"
    home.mkdir()
    carried = carry_state("resume", CLAUDE_HANDOFF, previous, home)
    moved = sorted(str(p.relative_to(home)) for p in home.rglob("*") if p.is_file())
    assert moved == sorted([".claude/projects/todo.txt", STORE])
    assert carried.session_id == SESSION and carried.error is None
    assert carried.record()["state_files"] == 2 and carried.record()["skipped"] == []


def test_a_symlink_in_the_store_is_not_followed(tmp_path: Path) -> None:
    previous, home = cut_off_home(tmp_path), tmp_path / "home"
    home.mkdir()
    secret = tmp_path / "secret.txt"
    secret.write_text("root's")
    projects = previous / ".claude" / "projects"
    os.symlink(secret, projects / "leak.txt")
    os.symlink(tmp_path, projects / "up")
    carried = carry_state("resume", CLAUDE_HANDOFF, previous, home)
    assert not (home / ".claude/projects/leak.txt").exists()
    assert not (home / ".claude/projects/up").exists()
    assert len(carried.skipped) == 2 and all("not followed" in s for s in carried.skipped)
    assert carried.session_id == SESSION


def test_a_store_that_is_itself_a_symlink_moves_nothing(tmp_path: Path) -> None:
    previous, home = tmp_path / "previous", tmp_path / "home"
    (previous / ".claude").mkdir(parents=True)
    home.mkdir()
    os.symlink(tmp_path, previous / ".claude" / "projects")
    carried = carry_state("resume", CLAUDE_HANDOFF, previous, home)
    assert not list(home.rglob("*")) and carried.session_id is None
    assert "no session" in (carried.error or "")


def test_a_directory_on_the_way_to_the_store_that_is_a_symlink_moves_nothing(
    tmp_path: Path,
) -> None:
    """`.claude` made a link elsewhere would carry root's `projects` there in as the store."""
    elsewhere = tmp_path / "root-only"
    (elsewhere / "projects").mkdir(parents=True)
    (elsewhere / "projects" / f"{SESSION}.jsonl").write_text("root's")
    previous, home = tmp_path / "previous", tmp_path / "home"
    previous.mkdir()
    home.mkdir()
    os.symlink(elsewhere, previous / ".claude")
    carried = carry_state("resume", CLAUDE_HANDOFF, previous, home)
    assert not list(home.rglob("*")) and carried.session_id is None
    assert carried.skipped == [".claude/projects: .claude is not a directory (not followed)"]


def test_the_state_is_bounded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(handoff, "MAX_STATE_BYTES", 1000)
    previous, home = cut_off_home(tmp_path), tmp_path / "home"
    home.mkdir()
    (previous / ".claude" / "projects" / "huge.bin").write_bytes(b"x" * 5000)
    carried = carry_state("resume", CLAUDE_HANDOFF, previous, home)
    assert not (home / ".claude/projects/huge.bin").exists()
    assert carried.skipped == [".claude/projects/huge.bin: over the 1000 bytes state bound"]
    assert carried.size <= 1000 and carried.session_id == SESSION


def test_the_digest_is_stable_and_covers_paths_and_contents(tmp_path: Path) -> None:
    def digest(previous: Path, name: str) -> str:
        home = tmp_path / name
        home.mkdir()
        return str(carry_state("resume", CLAUDE_HANDOFF, previous, home).record()["state_sha256"])

    previous = cut_off_home(tmp_path)
    first = digest(previous, "a")
    assert digest(previous, "b") == first
    (previous / STORE).write_text('{"type":"assistant"}\n')
    changed = digest(previous, "c")
    (previous / STORE).rename(previous / STORE.replace("beef", "beee"))
    renamed = digest(previous, "d")
    assert len({first, changed, renamed}) == 3


def test_a_store_naming_two_sessions_or_a_malformed_id_resumes_none(tmp_path: Path) -> None:
    previous, home = cut_off_home(tmp_path), tmp_path / "home"
    home.mkdir()
    projects = previous / ".claude" / "projects" / "-tmp-run-sandbox"
    (projects / "$(rm -rf ~).jsonl").write_text("{}")  # not an id: never resumed
    assert carry_state("resume", CLAUDE_HANDOFF, previous, home).session_id == SESSION
    (projects / (SESSION.replace("beef", "f00d") + ".jsonl")).write_text("{}")
    other = tmp_path / "other"
    other.mkdir()
    carried = carry_state("resume", CLAUDE_HANDOFF, previous, other)
    assert carried.session_id is None and "2 sessions" in (carried.error or "")


def test_an_unsupported_mode_is_a_usage_error_naming_what_is_supported() -> None:
    with pytest.raises(UsageError, match="notetaker does not support --handoff resume"):
        require_handoff(get_agent("notetaker"), "resume")
    with pytest.raises(UsageError, match="unknown handoff mode 'rewind'"):
        require_handoff(get_agent("claude-code"), "rewind")
    require_handoff(get_agent("claude-code"), "compact")
    require_handoff(get_agent("notetaker"), "fresh")


def test_a_declaration_that_is_not_a_handoff_support_declares_nothing() -> None:
    class Odd:
        name = "odd"
        handoff = ("resume",)

    with pytest.raises(UsageError, match="supports fresh"):
        require_handoff(Odd(), "resume")
    assert isinstance(CLAUDE_HANDOFF, HandoffSupport)


def test_prepare_refuses_an_unsupported_mode_before_any_work(tmp_path: Path) -> None:
    from specsnap.runs import prepare_run

    with pytest.raises(UsageError, match="does not support --handoff compact"):
        prepare_run(RunSpec("1", 0, "codex", handoff="compact"), tmp_path / "run")
    assert not (tmp_path / "run").exists()
