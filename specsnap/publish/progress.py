"""The check run that shows an evaluation while it runs (docs/action.md, "Feedback while it runs").

The prepare step creates it `in_progress` (tier, seed, agent, a link to the job), each session
step adds a line as its session ends (how it ended, its time, the tokens so far), and the publish
step completes that same check run with the scorecard. Which check run it is stays in the run
directory (root's), and the publish step completes it only when GitHub still shows it as ours to
complete: the same name and commit, not yet completed. Anything else gets a new check run, so a
run directory from elsewhere (the fork recipe's artifact) can never edit another check run.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from pathlib import Path

from github.Repository import Repository

from specsnap.publish.github import edit_check_run, start_check_run
from specsnap.render.markup import inert

RECORD = "check-run.json"
TITLE = "Evaluating…"


@dataclass(frozen=True)
class Progress:
    """The in-progress check run of one evaluation, and what it says so far."""

    check_run_id: int
    name: str
    head_sha: str
    lines: tuple[str, ...]


def start_progress(
    repo: Repository, run_dir: Path, head_sha: str, name: str, agent: str, details_url: str | None
) -> Progress:
    """Create the in-progress check run for the run prepared in `run_dir`, and record it."""
    first = f"Prepared for `{inert(agent)}`; the sessions follow."
    summary = _summary(name, (first,), details_url)
    run_id = start_check_run(repo, name, head_sha, TITLE, summary, details_url)
    progress = Progress(run_id, name, head_sha, (first,))
    _save(run_dir, progress)
    return progress


def report_progress(repo: Repository, run_dir: Path, line: str, details_url: str | None) -> None:
    """Add `line` to the run's in-progress check run (nothing when there is none)."""
    progress = load_progress(run_dir)
    if progress is None:
        return
    progress = Progress(
        progress.check_run_id, progress.name, progress.head_sha, (*progress.lines, line)
    )
    edit_check_run(
        repo, progress.check_run_id, TITLE, _summary(progress.name, progress.lines, details_url)
    )
    _save(run_dir, progress)


def load_progress(run_dir: Path) -> Progress | None:
    """The run's in-progress check run as recorded, or None (none, or not a record of ours)."""
    try:
        data = json.loads((run_dir / RECORD).read_text(encoding="utf-8"))
        return Progress(
            int(data["check_run_id"]),
            str(data["name"]),
            str(data["head_sha"]),
            tuple(str(line) for line in data["lines"]),
        )
    except (OSError, ValueError, KeyError, TypeError):
        return None


def _save(run_dir: Path, progress: Progress) -> None:
    path = run_dir / RECORD
    temporary = path.with_suffix(".tmp")
    temporary.write_text(json.dumps(asdict(progress), indent=2) + "\n", encoding="utf-8")
    temporary.replace(path)


def _summary(name: str, lines: tuple[str, ...], details_url: str | None) -> str:
    shown = [f"**{inert(name)}** is being evaluated.", "", *(f"- {line}" for line in lines)]
    if details_url:
        shown += ["", f"[The job]({details_url})"]
    return "\n".join(shown)
