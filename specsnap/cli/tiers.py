"""`specsnap tiers`: list, show and validate tiers."""

from __future__ import annotations

import sys

import click

from specsnap.cli.guard import guard
from specsnap.rundir import DEFAULT_SEED


@click.group()
def tiers() -> None:
    """List, show and validate tiers."""


@tiers.command("list")
@guard
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
@guard
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
@guard
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
