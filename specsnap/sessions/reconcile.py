"""Reconciliation of an armed session (pure): what changed between the armed snapshot and the
end of the session that the cutoff did not account for is a protocol breach.

- any content written after the freeze; a source change the cutoff neither kept (the file that
  fired it) nor put back (what it cut away, sessions.cutoff);
- an index entry of a source path whose content the working tree never held while armed (at
  arm, at the freeze or at the end): only plumbing stages such content. Staging with ordinary
  git what an earlier session left, or what this one wrote, is work, never a breach; so is
  removing an entry (it can only take code away);
- every commit object stored while armed, on HEAD, on another ref or on none;
- replace refs, grafts, `shallow`, alternates or `commondir` changed: they change what history
  means without changing HEAD (grading ignores replace refs and grafts anyway).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from specsnap.sandbox.gitrepo import RepoState
from specsnap.sandbox.globs import matches


@dataclass(frozen=True)
class SessionEnd:
    """What the session left, next to what the cutoff saw."""

    index: int
    watch: tuple[str, ...]
    source_changes: Mapping[str, str]  # source path -> created/changed/deleted since arming
    kept: frozenset[str]  # the file that fired the cutoff (it keeps its edit)
    written_after: tuple[str, ...]  # paths whose content changed after the freeze
    landed: tuple[str, ...]  # commits reachable from HEAD that were not at arm time, oldest first
    # index paths changed while armed -> blob ids the working tree held there (None: no file)
    worktree_blobs: Mapping[str, frozenset[str | None]] = field(default_factory=dict)


def breaches(end: SessionEnd, armed: RepoState | None, final: RepoState | None) -> list[str]:
    """Every breach found, as the sentence the scorecard shows."""
    found = [f"{path} was written after the freeze" for path in end.written_after]
    after = set(end.written_after)
    found += [
        f"source change the cutoff did not fire on: {path} ({change})"
        for path, change in end.source_changes.items()
        if path not in end.kept and path not in after
    ]
    if armed is None or final is None:
        return found
    for path in sorted(set(armed.index) | set(final.index)):
        if armed.index.get(path) == final.index.get(path) or not matches(path, end.watch):
            continue
        entry = final.index.get(path)
        blob = entry.split()[1] if entry else None
        if blob is not None and blob not in end.worktree_blobs.get(path, frozenset()):
            found.append(f"index entry {path} was changed while armed (git plumbing)")
    new = final.commits - armed.commits
    found += [f"commit {c[:12]} landed while armed" for c in end.landed if c in new]
    for commit in sorted(new - set(end.landed)):
        refs = sorted(name for name, target in final.refs.items() if target == commit)
        where = ", ".join(refs) if refs else "on no ref"
        found.append(f"commit {commit[:12]} stored while armed ({where})")
    found += _changed(armed.refs, final.refs, "refs/replace/", "")
    found += _changed(armed.history_files, final.history_files, "", ".git/")
    return found


def _changed(
    before: Mapping[str, Any], after: Mapping[str, Any], prefix: str, shown_as: str
) -> list[str]:
    found = []
    for name in sorted(set(before) | set(after)):
        if not name.startswith(prefix) or before.get(name) == after.get(name):
            continue
        what = (
            "created"
            if before.get(name) is None
            else "deleted"
            if after.get(name) is None
            else "changed"
        )
        found.append(f"{shown_as}{name} was {what} while armed")
    return found
