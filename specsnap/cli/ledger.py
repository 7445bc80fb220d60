"""`specsnap submit`, `specsnap ledger` and `specsnap leaderboard`: a graded run on its way to the
curriculum ledger, and the pages built from it."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from specsnap.cli.guard import guard


@click.command()
@click.argument("run_dir", type=click.Path(path_type=Path, file_okay=False))
@click.option("--out", type=click.Path(path_type=Path, dir_okay=False), help="Bundle file.")
@click.option(
    "--attestation",
    type=click.Path(path_type=Path, dir_okay=False, exists=True),
    help="The scorecard's build-provenance attestation (Sigstore bundle) to carry.",
)
@guard
def submit(run_dir: Path, out: Path | None, attestation: Path | None) -> None:
    """Bundle a graded run for the leaderboard: records, history, scorecard."""
    from specsnap.submission.bundle import create_submission

    click.echo(f"submission: {create_submission(run_dir, out, attestation)}")


ledger_option = click.option(
    "--ledger",
    "ledger_path",
    type=click.Path(path_type=Path, dir_okay=False),
    default="ledger.jsonl",
    envvar="SPECSNAP_LEDGER",
    show_default=True,
    help="The ledger file (or $SPECSNAP_LEDGER).",
)


@click.group()
def ledger() -> None:
    """The curriculum ledger: verified scorecards, and the Stage II unlock."""


@ledger.command("append")
@click.argument("bundle", type=click.Path(path_type=Path, dir_okay=False, exists=True))
@ledger_option
@click.option(
    "--attestation-verified",
    is_flag=True,
    help="The bundle's attestation was verified (`gh attestation verify`) before this call.",
)
@guard
def ledger_append(bundle: Path, ledger_path: Path, attestation_verified: bool) -> None:
    """Verify a submission (rebuild its scorecard) and append it; 1 when refused."""
    from specsnap.ledger.chain import Outcome
    from specsnap.render.ledger import entry_line
    from specsnap.submission.record import record_submission

    recording = record_submission(ledger_path, bundle, attestation_verified=attestation_verified)
    for check in recording.report.checks if recording.report else ():
        mark = click.style("ok  ", fg="green") if check.ok else click.style("FAIL", fg="red")
        click.echo(f"{mark} {check.name}: {check.detail}")
    if recording.entry is not None:
        click.echo(f"{recording.outcome.value}: {entry_line(recording.entry)}")
    for reason in recording.reasons:
        click.echo(f"refused: {reason}")
    sys.exit(1 if recording.outcome is Outcome.REFUSED else 0)


@ledger.command("status")
@ledger_option
@click.option("--json", "as_json", is_flag=True, help="Print the status as JSON.")
@guard
def ledger_status(ledger_path: Path, as_json: bool) -> None:
    """Entries, head, and whether Stage II is unlocked (and by which entry)."""
    from specsnap.ledger.store import load_ledger
    from specsnap.render.ledger import status_json, status_text

    found = load_ledger(ledger_path)
    text = (
        json.dumps(status_json(found), indent=2)
        if as_json
        else status_text(str(ledger_path), found)
    )
    click.echo(text)


@ledger.command("verify")
@ledger_option
@click.option(
    "--extends",
    "earlier",
    type=click.Path(path_type=Path, dir_okay=False, exists=True),
    help="An earlier copy of the ledger that this one must extend, entry for entry.",
)
@guard
def ledger_verify(ledger_path: Path, earlier: Path | None) -> None:
    """Check the hash chain and the rules, entry by entry; 1 when broken."""
    from specsnap.ledger.store import ledger_problems

    found, problems = ledger_problems(ledger_path, earlier)
    for problem in problems:
        click.echo(f"FAIL {problem}")
    state = "broken" if problems else "intact"
    click.echo(f"{ledger_path}: {len(found.entries)} entries, head {found.head}: {state}")
    sys.exit(1 if problems else 0)


@click.command()
@click.argument("ledger_path", metavar="LEDGER", type=click.Path(path_type=Path, dir_okay=False))
@click.option("--out", type=click.Path(path_type=Path, file_okay=False), required=True)
@click.option(
    "--signals",
    type=click.Path(path_type=Path, file_okay=False, exists=True),
    help="Runs' scorecard.json (and reviews.json) files: work and review columns, tokens plot.",
)
@guard
def leaderboard(ledger_path: Path, out: Path, signals: Path | None) -> None:
    """Build the static leaderboard site from a ledger into --out."""
    from specsnap.leaderboard.site import build_site

    click.echo(f"leaderboard: {build_site(ledger_path, out, signals)}")
