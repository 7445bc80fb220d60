"""The `specsnap` command: parses, calls the library, maps results to exit codes (STYLE.md).

0 ran and passed · 1 ran and did not pass · 2 bad usage or input · 3 infrastructure failure.

Over 400 lines: every subcommand's options, each a thin call into the library.
"""

from __future__ import annotations

import functools
import json
import os
import sys
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from specsnap import __version__
from specsnap.errors import SpecSnapError
from specsnap.rundir import DEFAULT_SEED
from specsnap.scorecard.model import HANDOFF_MODES

if TYPE_CHECKING:
    from specsnap.rundir import RunSpec

_DEBUG = {"on": False}


def _fail(exc: BaseException) -> None:
    if _DEBUG["on"]:
        traceback.print_exception(exc)
    click.secho(f"specsnap: {exc}", fg="red", err=True)
    code = exc.exit_code if isinstance(exc, SpecSnapError) else 3
    sys.exit(code)


def _guard(func: Callable[..., Any]) -> Callable[..., Any]:
    """Expected failures print one clear message and exit with their code (no traceback)."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except SpecSnapError as exc:
            _fail(exc)
        except KeyboardInterrupt:
            click.echo("interrupted", err=True)
            sys.exit(130)

    return wrapper


def _parse_pairs(pairs: tuple[str, ...], what: str) -> dict[str, str]:
    result = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise click.BadParameter(f"{pair!r} is not KEY=VALUE", param_hint=what)
        result[key] = value
    return result


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="specsnap")
@click.option("--debug", is_flag=True, help="Show tracebacks for expected failures too.")
def main(debug: bool) -> None:
    """SpecSnap: what a coding agent's specification survives across session cutoffs."""
    _DEBUG["on"] = debug


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
        agent_options=_parse_pairs(options["agent_opt"], "--agent-opt"),
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
@_guard
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
@_guard
def session(run_dir: Path, index: int) -> None:
    """Run session INDEX of a prepared run."""
    from specsnap.render.terminal import render_session
    from specsnap.runs import run_session

    click.echo(render_session(run_session(run_dir, index, environ=os.environ).session))


@main.command()
@click.argument("run_dir", type=click.Path(path_type=Path, file_okay=False))
@_guard
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
@_guard
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
@_guard
def verify(scorecard: Path, run_dir: Path | None) -> None:
    """Check a scorecard's receipt; with --run, rebuild it and compare all but timings."""
    from specsnap.verify import verify_scorecard

    result = verify_scorecard(scorecard, run_dir)
    for check in result.checks:
        mark = click.style("ok  ", fg="green") if check.ok else click.style("FAIL", fg="red")
        click.echo(f"{mark} {check.name}: {check.detail}")
    click.echo(result.conclusion)
    sys.exit(0 if result.ok else 1)


@main.group()
def tiers() -> None:
    """List, show and validate tiers."""


@tiers.command("list")
@_guard
def tiers_list() -> None:
    """Every tier, with its size and budget."""
    from specsnap.tier.loading import list_tiers, load_tier

    for tier_id in list_tiers():
        t = load_tier(tier_id)
        click.echo(
            f"{t.id:8} {t.sessions} sessions  {len(t.requirements):2} requirements  "
            f"budget {t.budget_tokens:>9,}  {t.name}"
        )


@tiers.command("show")
@click.argument("tier")
@click.option("--seed", type=int, default=DEFAULT_SEED, show_default=True)
@_guard
def tiers_show(tier: str, seed: int) -> None:
    """A tier's settings, and its sprint with the order and values seed SEED draws."""
    from specsnap.tier.draws import draw, values_for
    from specsnap.tier.loading import load_tier
    from specsnap.tier.params import render
    from specsnap.tier.prompts import render_sprint

    t = load_tier(tier)
    click.echo(f"{t.id}: {t.name}\n{t.summary}\n")
    click.echo(
        f"sessions {t.sessions} · cutoff arms at {t.cutoff_arm} · budget {t.budget_tokens:,}"
        f" · pass ≥ {t.pass_threshold:.0%} · {t.time_limit_s}s per session"
    )
    click.echo(f"packages: {', '.join(t.wiring.packages)} · protected: {', '.join(t.protected)}")
    drawn = draw(t, seed)
    if drawn:
        click.echo(f"seed {seed} draws: " + ", ".join(f"{k}={v}" for k, v in drawn.items()))
    click.echo()
    click.echo(render_sprint(t, seed))
    for amendment in t.amendments:
        click.echo(f"--- amendment in session {amendment.session} ({', '.join(amendment.amends)})")
        click.echo(render(amendment.text, values_for(t, seed)) + "\n")
    if t.stage2 is not None:
        regression, refactor = t.stage2.regression, t.stage2.refactor
        moves = ", ".join(f"{old} -> {new}" for old, new in refactor.moves.items())
        click.echo(
            f"stage II: planted regression {regression.message!r}, caught by "
            f"{', '.join(regression.catches)}; refactor {moves}"
        )


@tiers.command("validate")
@click.argument("tier", required=False)
@click.option(
    "--seeds",
    default=5,
    show_default=True,
    type=click.IntRange(1, 100),
    help="How many seeds (0..N-1) to prove the tier with.",
)
@click.option(
    "--mutants",
    is_flag=True,
    help="Also grade the tier's mutants (mutants.yaml) and check that at least 97% are killed.",
)
@_guard
def tiers_validate(tier: str | None, seeds: int, mutants: bool) -> None:
    """Prove a tier (or every tier) sound over several seeds: reference, starter, each
    requirement alone, and no seed's reference carrying over to another's behaviour."""
    from specsnap.tier.loading import list_tiers
    from specsnap.validation import validate_tier

    ok = True
    for tier_id in [tier] if tier else list_tiers():
        report = validate_tier(tier_id, seeds=seeds, echo=click.echo, mutants=mutants)
        ok = ok and report.ok
    sys.exit(0 if ok else 1)


@main.command()
@click.argument("name", type=click.Choice(["tier", "mutants", "scorecard"]))
@_guard
def schema(name: str) -> None:
    """Print a JSON Schema shipped with SpecSnap."""
    from specsnap.schemas import load_schema

    click.echo(json.dumps(load_schema(name), indent=2))


@main.command()
@_guard
def agents() -> None:
    """List the agent adapters."""
    from specsnap.agents.base import known_agents

    for name in known_agents():
        click.echo(name)


@main.command()
@click.argument("scorecards", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print the summaries as JSON.")
@_guard
def aggregate(scorecards: tuple[Path, ...], as_json: bool) -> None:
    """Mean and confidence interval over seeds, per tier, agent and stage."""
    from specsnap.render.summary import render_summaries
    from specsnap.scorecard.aggregate import load_results, summarize, summary_json

    summaries = summarize(load_results(scorecards))
    click.echo(
        json.dumps(summary_json(summaries), indent=2) if as_json else render_summaries(summaries)
    )


@main.command()
@click.argument("run_dir", type=click.Path(path_type=Path, file_okay=False))
@click.option("--out", type=click.Path(path_type=Path, dir_okay=False), help="Bundle file.")
@click.option(
    "--attestation",
    type=click.Path(path_type=Path, dir_okay=False, exists=True),
    help="The scorecard's build-provenance attestation (Sigstore bundle) to carry.",
)
@_guard
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


@main.group()
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
@_guard
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
@_guard
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
@_guard
def ledger_verify(ledger_path: Path, earlier: Path | None) -> None:
    """Check the hash chain and the rules, entry by entry; 1 when broken."""
    from specsnap.ledger.store import ledger_problems

    found, problems = ledger_problems(ledger_path, earlier)
    for problem in problems:
        click.echo(f"FAIL {problem}")
    state = "broken" if problems else "intact"
    click.echo(f"{ledger_path}: {len(found.entries)} entries, head {found.head}: {state}")
    sys.exit(1 if problems else 0)


@main.command()
@click.argument("ledger_path", metavar="LEDGER", type=click.Path(path_type=Path, dir_okay=False))
@click.option("--out", type=click.Path(path_type=Path, file_okay=False), required=True)
@_guard
def leaderboard(ledger_path: Path, out: Path) -> None:
    """Build the static leaderboard site from a ledger into --out."""
    from specsnap.leaderboard.site import build_site

    click.echo(f"leaderboard: {build_site(ledger_path, out)}")
