"""The `specsnap` command: parses, calls the library, maps results to exit codes (STYLE.md).

0 ran and passed · 1 ran and did not pass · 2 bad usage or input · 3 infrastructure failure.

The tier, ledger and leaderboard commands are in their own modules beside this one.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from specsnap import __version__
from specsnap.cli.guard import DEBUG, guard, parse_pairs
from specsnap.cli.ledger import leaderboard, ledger, submit
from specsnap.cli.review import review
from specsnap.cli.tiers import tiers
from specsnap.rundir import DEFAULT_SEED
from specsnap.scorecard.model import HANDOFF_MODES

if TYPE_CHECKING:
    from specsnap.rundir import RunSpec


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="specsnap")
@click.option("--debug", is_flag=True, help="Show tracebacks for expected failures too.")
def main(debug: bool) -> None:
    """SpecSnap: what a coding agent's specification survives across session cutoffs."""
    DEBUG["on"] = debug


tier_option = click.option("--tier", "tier", required=True, help="Tier: 2, tier-2 or a path.")
seed_option = click.option(
    "--seed", type=int, default=DEFAULT_SEED, show_default=True, help="Run seed."
)


def run_options(func: Callable[..., Any]) -> Callable[..., Any]:
    options = [
        click.option("--agent", default="notetaker", show_default=True, help="Agent adapter."),
        click.option("--agent-opt", multiple=True, metavar="KEY=VALUE", help="Adapter option."),
        click.option("--pass-env", multiple=True, metavar="NAME", help="Pass this env var."),
        click.option("--time-limit", type=int, help="Per-session limit in s (unofficial)."),
        click.option("--budget", type=int, help="Token budget for TES (unofficial)."),
        click.option(
            "--stage",
            type=click.IntRange(1, 2),
            help="1, or 2: perturbations between sessions and a ticket tracker "
            "[the stage every evaluation runs: 1 until Stage II is unlocked].",
        ),
        click.option(
            "--perturb",
            metavar="KINDS",
            help="Stage II: only these perturbations, comma-separated (unofficial) "
            "[lost-work,teammate-refactor,planted-regression,stale-note].",
        ),
        click.option(
            "--handoff",
            type=click.Choice(HANDOFF_MODES),
            default="fresh",
            show_default=True,
            help="How sessions after the cutoff continue: fresh (the protocol's), or the "
            "agent's own resume or compaction of the cut-off session.",
        ),
        click.option(
            "--ledger",
            type=click.Path(path_type=Path, dir_okay=False),
            envvar="SPECSNAP_LEDGER",
            help="The curriculum ledger that says whether Stage II is unlocked "
            "[$SPECSNAP_LEDGER; none: locked].",
        ),
    ]
    for option in reversed(options):
        func = option(func)
    return func


def _spec(options: dict[str, Any]) -> RunSpec:
    """The run that `run_options` (with --tier and --seed) ask for."""
    from specsnap.rundir import RunSpec

    return RunSpec(
        tier=options["tier"],
        seed=options["seed"],
        agent=options["agent"],
        agent_options=parse_pairs(options["agent_opt"], "--agent-opt"),
        pass_env=tuple(options["pass_env"]),
        time_limit_s=options["time_limit"],
        budget_tokens=options["budget"],
        stage=options["stage"],
        perturbations=options["perturb"],
        handoff=options["handoff"],
        ledger=options["ledger"],
    )


@main.command()
@tier_option
@seed_option
@run_options
@click.option("--out", type=click.Path(path_type=Path), required=True, help="Run directory.")
@guard
def prepare(out: Path, **options: Any) -> None:
    """Create a run: the sandbox with its baseline commit (docs/protocol.md)."""
    from specsnap.runs import prepare_run

    run = prepare_run(_spec(options), out)
    click.echo(
        f"prepared {run.tier_id} seed {run.seed} stage {run.stage} handoff {run.handoff} "
        f"in {run.run_dir} "
        f"(baseline {run.baseline_commit[:12]})"
    )


@main.command()
@click.argument("run_dir", type=click.Path(path_type=Path, file_okay=False))
@click.argument("index", type=int)
@guard
def session(run_dir: Path, index: int) -> None:
    """Run session INDEX of a prepared run."""
    from specsnap.render.terminal import render_session
    from specsnap.runs import run_session

    click.echo(render_session(run_session(run_dir, index, environ=os.environ).session))


@main.command()
@click.argument("run_dir", type=click.Path(path_type=Path, file_okay=False))
@guard
def grade(run_dir: Path) -> None:
    """Grade HEAD of the run's sandbox; write scorecard.json and scorecard.md."""
    from specsnap.render.terminal import render_summary
    from specsnap.runs import grade_run

    card = grade_run(run_dir)
    click.echo(render_summary(card))
    click.echo(f"scorecard: {run_dir / 'scorecard.json'}")
    sys.exit(0 if card.passed else 1)


@main.command()
@tier_option
@seed_option
@run_options
@click.option(
    "--out", type=click.Path(path_type=Path), help="Run directory [runs/TIER-AGENT-SEED]."
)
@guard
def run(out: Path | None, **options: Any) -> None:
    """prepare → sessions with cutoffs → grade → scorecard, in one go."""
    from specsnap.cli.progress import run_with_progress

    spec = _spec(options)
    tier = spec.tier if not spec.tier.isdigit() else f"tier-{spec.tier}"
    suffix = "-stage2" if spec.stage == 2 else ""
    suffix += f"-{spec.handoff}" if spec.handoff != "fresh" else ""
    out = out or Path("runs") / f"{tier}-{spec.agent}-{spec.seed}{suffix}"
    card = run_with_progress(spec, out)
    sys.exit(0 if card.passed else 1)


@main.command()
@click.argument("scorecard", type=click.Path(path_type=Path, dir_okay=False))
@click.option(
    "--run",
    "run_dir",
    type=click.Path(path_type=Path, file_okay=False),
    help="The run directory: rebuild the whole scorecard from its records and a regrade.",
)
@click.option(
    "--reviews-key",
    type=click.Path(path_type=Path, dir_okay=False, exists=True),
    help="The bot's public key (PEM): the reviews it recorded must carry its signatures.",
)
@guard
def verify(scorecard: Path, run_dir: Path | None, reviews_key: Path | None) -> None:
    """Check a scorecard's receipt; with --run, rebuild it and compare all but timings."""
    from specsnap.verify import verify_scorecard

    key = reviews_key.read_text(encoding="utf-8") if reviews_key is not None else None
    result = verify_scorecard(scorecard, run_dir, key)
    for check in result.checks:
        mark = click.style("ok  ", fg="green") if check.ok else click.style("FAIL", fg="red")
        click.echo(f"{mark} {check.name}: {check.detail}")
    click.echo(result.conclusion)
    sys.exit(0 if result.ok else 1)


@main.command()
@click.argument("name", type=click.Choice(["tier", "mutants", "scorecard"]))
@guard
def schema(name: str) -> None:
    """Print a JSON Schema shipped with SpecSnap."""
    from specsnap.schemas import load_schema

    click.echo(json.dumps(load_schema(name), indent=2))


@main.command()
@guard
def agents() -> None:
    """List the agent adapters."""
    from specsnap.agents.base import known_agents

    for name in known_agents():
        click.echo(name)


@main.command()
@click.argument("scorecards", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print the summaries as JSON.")
@guard
def aggregate(scorecards: tuple[Path, ...], as_json: bool) -> None:
    """Mean and confidence interval over seeds, per tier, agent and stage."""
    from specsnap.render.summary import render_summaries
    from specsnap.scorecard.aggregate import load_results, summarize, summary_json

    summaries = summarize(load_results(scorecards))
    click.echo(
        json.dumps(summary_json(summaries), indent=2) if as_json else render_summaries(summaries)
    )


for _command in (tiers, submit, ledger, leaderboard, review):
    main.add_command(_command)
