"""`specsnap review RUN_DIR`: write the review packet; with `--rate FILE --reviewer NAME`, record
one reviewer's ratings in the run's reviews section (docs/protocol.md, Reviews)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import click

from specsnap.cli.guard import guard

PACKET_DIR = "review"


@click.command()
@click.argument("run_dir", type=click.Path(path_type=Path, file_okay=False, exists=True))
@click.option(
    "--out",
    type=click.Path(path_type=Path, file_okay=False),
    help=f"Where to write packet.md and packet.json (default RUN_DIR/{PACKET_DIR}).",
)
@click.option(
    "--rate",
    type=click.Path(path_type=Path, dir_okay=False, exists=True),
    help="A ratings file (YAML) to record instead of writing the packet.",
)
@click.option("--reviewer", help="Who rates (required with --rate).")
@guard
def review(run_dir: Path, out: Path | None, rate: Path | None, reviewer: str | None) -> None:
    """Write the review packet of a run, or record a reviewer's ratings (--rate)."""
    if rate is None:
        _write_packet(run_dir, out or run_dir / PACKET_DIR)
        return
    if not reviewer or not reviewer.strip():
        raise click.UsageError("--rate needs --reviewer NAME: who gives these ratings")
    _record(run_dir, rate, reviewer.strip())


def _write_packet(run_dir: Path, out: Path) -> None:
    from specsnap.reviewdesk.packet import build_packet

    packet = build_packet(run_dir)
    out.mkdir(parents=True, exist_ok=True)
    (out / "packet.md").write_text(packet.markdown, encoding="utf-8")
    (out / "packet.json").write_text(json.dumps(packet.data, indent=2) + "\n", encoding="utf-8")
    click.echo(f"review packet: {out / 'packet.md'} and {out / 'packet.json'}")


def _record(run_dir: Path, rate: Path, reviewer: str) -> None:
    from specsnap.review.ratings import load_ratings_file
    from specsnap.review.rules import Submission
    from specsnap.reviewdesk.desk import record, standing

    kind, scores = load_ratings_file(rate)
    source = {"via": "local", "file_sha256": hashlib.sha256(rate.read_bytes()).hexdigest()}
    section = record(run_dir, Submission(reviewer, kind, scores), source)
    click.echo(f"recorded {reviewer}'s {kind} in {run_dir / 'reviews.json'} (head {section.head})")
    click.echo(standing(section.review))
