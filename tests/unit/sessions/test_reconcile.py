"""The reconciliation of an armed session, as a pure function over two repository states."""

from __future__ import annotations

from dataclasses import replace

from specsnap.sandbox.gitrepo import HISTORY_FILES, RepoState
from specsnap.sessions.reconcile import SessionEnd, breaches

BASE = "b" * 40
ARMED = RepoState(
    head="ref: refs/heads/main",
    refs={"refs/heads/main": BASE},
    history_files=dict.fromkeys(HISTORY_FILES),
    commits=frozenset({BASE}),
    index={"pkg/mod.py": f"100644 {'1' * 40} 0", "NOTES.md": f"100644 {'2' * 40} 0"},
)
END = SessionEnd(
    index=1,
    watch=("**/*.py",),
    source_changes={"pkg/mod.py": "changed"},
    kept=frozenset({"pkg/mod.py"}),
    written_after=(),
    landed=(),
)


def test_an_honest_cutoff_is_no_breach() -> None:
    notes_staged = replace(ARMED, index={**ARMED.index, "NOTES.md": f"100644 {'3' * 40} 0"})
    branch = replace(notes_staged, refs={**ARMED.refs, "refs/heads/idea": BASE})
    assert breaches(END, ARMED, branch) == []


def test_source_changes_the_cutoff_did_not_fire_on() -> None:
    end = replace(END, source_changes={"pkg/mod.py": "changed", "pkg/b.py": "created"})
    assert breaches(end, ARMED, ARMED) == [
        "source change the cutoff did not fire on: pkg/b.py (created)"
    ]
    never_fired = replace(end, kept=frozenset())
    assert len(breaches(never_fired, ARMED, ARMED)) == 2


def test_writes_after_the_freeze() -> None:
    end = replace(
        END,
        source_changes={"pkg/mod.py": "changed", "pkg/late.py": "created"},
        written_after=("NOTES.md", "pkg/late.py"),
    )
    assert breaches(end, ARMED, ARMED) == [
        "NOTES.md was written after the freeze",
        "pkg/late.py was written after the freeze",
    ]


def test_source_staged_without_a_source_edit() -> None:
    staged = replace(ARMED, index={**ARMED.index, "pkg/new.py": f"100644 {'4' * 40} 0"})
    assert breaches(END, ARMED, staged) == [
        "index entry pkg/new.py was changed while armed (git plumbing)"
    ]
    elsewhere = replace(END, worktree_blobs={"pkg/new.py": frozenset({"5" * 40, None})})
    assert len(breaches(elsewhere, ARMED, staged)) == 1


def test_staging_what_the_working_tree_held_is_work() -> None:
    """`git add -A` of what an earlier session left (the tree held it at arm), of this
    session's own edit (at the freeze), or a removal: ordinary git, never a breach."""
    staged = replace(
        ARMED,
        index={"pkg/mod.py": f"100644 {'6' * 40} 0", "pkg/left.py": f"100644 {'4' * 40} 0"},
    )
    end = replace(
        END,
        worktree_blobs={
            "pkg/left.py": frozenset({"4" * 40}),
            "pkg/mod.py": frozenset({"1" * 40, "6" * 40}),
            "NOTES.md": frozenset({None}),
        },
    )
    assert breaches(end, ARMED, staged) == []


def test_every_commit_stored_while_armed() -> None:
    on_head, side, loose = "c" * 40, "d" * 40, "e" * 40
    final = replace(
        ARMED,
        refs={"refs/heads/main": on_head, "refs/heads/side": side},
        commits=frozenset({BASE, on_head, side, loose}),
    )
    end = replace(END, landed=(on_head,))
    assert breaches(end, ARMED, final) == [
        f"commit {on_head[:12]} landed while armed",
        f"commit {side[:12]} stored while armed (refs/heads/side)",
        f"commit {loose[:12]} stored while armed (on no ref)",
    ]


def test_replace_refs_and_history_files() -> None:
    final = replace(
        ARMED,
        refs={**ARMED.refs, f"refs/replace/{BASE}": "f" * 40},
        history_files={**ARMED.history_files, "info/grafts": "0" * 64, "shallow": "1" * 64},
    )
    assert breaches(END, ARMED, final) == [
        f"refs/replace/{BASE} was created while armed",
        ".git/info/grafts was created while armed",
        ".git/shallow was created while armed",
    ]


def test_without_a_repository_only_the_tree_is_reconciled() -> None:
    end = replace(END, source_changes={"pkg/other.py": "deleted"})
    assert breaches(end, ARMED, None) == [
        "source change the cutoff did not fire on: pkg/other.py (deleted)"
    ]
