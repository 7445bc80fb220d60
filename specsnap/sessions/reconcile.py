"""Reconciliation of an armed session (pure): what changed between the armed snapshot and the
end of the session that the cutoff did not account for is a protocol breach.

- a source change the cutoff did not fire on (the file that fired it, and files written in the
  same instant before the freeze, are accounted for); any content written after the freeze;
- a source path staged in the index (only plumbing can stage a change the cutoff never saw);
- every commit object stored while armed, on HEAD, on another ref or on none;
- replace refs, grafts, `shallow`, alternates or `commondir` changed: they change what history
  means without changing HEAD (grading ignores replace refs and grafts anyway).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from specsnap.gitrepo import RepoState
from specsnap.globs import matches


@dataclass(frozen=True)
class SessionEnd:
    """What the session left, next to what the cutoff saw."""

    index: int
    watch: tuple[str, ...]
    source_changes: Mapping[str, str]  # source path -> created/changed/deleted since arming
    fired_on: frozenset[str]  # the firing file and what was written with it before the freeze
    written_after: tuple[str, ...]  # paths whose content changed after the freeze
    landed: tuple[str, ...]  # commits reachable from HEAD that were not at arm time, oldest first


def breaches(end: SessionEnd, armed: RepoState | None, final: RepoState | None) -> list[str]:
    """Every breach found, as the sentence the scorecard shows."""
    found = [f"{path} was written after the freeze" for path in end.written_after]
    after = set(end.written_after)
    found += [
        f"source change the cutoff did not fire on: {path} ({change})"
        for path, change in end.source_changes.items()
        if path not in end.fired_on and path not in after
    ]
    if armed is None or final is None:
        return found
    for path in sorted(set(armed.index) | set(final.index)):
        staged = armed.index.get(path) != final.index.get(path) and matches(path, end.watch)
        if staged and path not in end.fired_on:
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
