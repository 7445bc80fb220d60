"""The sticky comment while an evaluation runs: "evaluating…", above the last scores (pure).

The status sits in a block of its own right under the comment's marker, so it can be replaced
(a newer push) and is gone once publishing writes the whole comment anew with the scores.
"""

from __future__ import annotations

import re

STATUS_START = "<!-- specsnap:status -->"
STATUS_END = "<!-- /specsnap:status -->"
_SHA = re.compile(r"[0-9a-f]{7,40}")
_STATUS = re.compile(re.escape(STATUS_START) + r".*?" + re.escape(STATUS_END) + r"\n?", re.S)


def render_evaluating(existing: str | None, marker: str, head_sha: str, run_url: str | None) -> str:
    """The comment body that says `head_sha` is being evaluated: `existing` (the sticky comment
    as it is, or None) keeps its scores below the status, which are then the last ones."""
    link = f" [The workflow run]({run_url})" if run_url else ""
    commit = f"`{head_sha[:12]}`" if _SHA.fullmatch(head_sha) else "this commit"
    if existing is None:
        status = f"> ⏳ **SpecSnap is evaluating {commit}…** The scores will be here.{link}"
        return f"{marker}\n{STATUS_START}\n{status}\n{STATUS_END}\n"
    status = (
        f"> ⏳ **SpecSnap is evaluating {commit}…** The scores below are from the last "
        f"evaluation until this one ends.{link}"
    )
    rest = _STATUS.sub("", existing)
    first, _, below = rest.partition("\n")
    if first.strip() != marker:  # not a body of ours: keep all of it below the status
        first, below = marker, rest
    return f"{first}\n{STATUS_START}\n{status}\n{STATUS_END}\n{below}"
