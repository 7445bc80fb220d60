"""`specsnap run`: the whole pipeline with a live progress line and a final table."""

from __future__ import annotations

import os
import sys
import threading
import time
from pathlib import Path
from typing import Any

import click

from specsnap.render.terminal import render_session, render_summary
from specsnap.render.words import CUTOFF_REASONS
from specsnap.rundir import RunSpec, load_run
from specsnap.runs import grade_run, prepare_run, run_session
from specsnap.scorecard.model import Scorecard


def _live(label: str, work: Any, status: dict[str, str] | None = None) -> Any:
    """Run `work()` while showing `label`, the elapsed time and `status["text"]` (in place on a
    TTY)."""
    result: dict[str, Any] = {}

    def target() -> None:
        try:
            result["value"] = work()
        except BaseException as exc:  # re-raised on the calling thread
            result["error"] = exc

    thread = threading.Thread(target=target, daemon=True)
    started = time.monotonic()
    thread.start()
    tty = sys.stderr.isatty()
    if not tty:
        click.echo(f"{label} …", err=True)
    while thread.is_alive():
        thread.join(0.2)
        if tty:
            extra = f"  {status['text']}" if status and status.get("text") else ""
            line = f"\r{label} … {time.monotonic() - started:5.1f}s{extra}"
            click.echo(line, nl=False, err=True)
    if tty:
        click.echo("\r\033[K", nl=False, err=True)
    if "error" in result:
        raise result["error"]
    return result["value"]


def run_with_progress(spec: RunSpec, out: Path) -> Scorecard:
    """prepare → every session → grade, printing each step; returns the scorecard."""
    run = prepare_run(spec, out)
    stage_text = "Stage II, " if run.stage == 2 else ""
    click.echo(
        f"prepared {run.tier_id} ({stage_text}seed {run.seed}, agent {run.agent}) in {run.run_dir}",
        err=True,
    )
    for index in range(1, run.tier.sessions + 1):
        if index in load_run(out).sessions_done:
            continue
        status = {"text": "armed" if index < run.tier.sessions else ""}

        def cut(reason: str, status: dict[str, str] = status) -> None:
            status["text"] = (
                f"cutoff fired on {CUTOFF_REASONS.get(reason, reason)}, ending the agent"
            )

        recorded = _live(
            f"session {index}/{run.tier.sessions}",
            lambda i=index, c=cut: run_session(out, i, c, environ=os.environ),
            status,
        )
        click.echo(render_session(recorded.session), err=True)
    card: Scorecard = _live("grading", lambda: grade_run(out))
    click.echo(render_summary(card))
    click.echo(f"scorecard: {out / 'scorecard.json'} and {out / 'scorecard.md'}")
    return card
