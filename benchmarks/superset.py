"""A superset memoriser against the amnesiac: what another seed's reference, with an alias for
every name, scores on every tier.

A memoriser that learnt seed M's reference solution and carries an alias for every name-valued
parameter (`kind: name`: a method, class, exception, keyword or key name) meets any run's names
and M's behaviour. So for each run seed S and memorised seed M != S, this builds the reference
rendered with M's behaviour and S's names and grades it for S, exactly as a run's final commit
is graded. The amnesiac (keeps nothing across the cutoff) is played for real over the same run
seeds. Prints per tier: the memoriser's mean raw retention, the amnesiac's, the gain in points,
and the gain the draws promise (the mean over requirements of 1 / its joint behaviour draws).
docs/protocol.md ("Memorisers") quotes the result; the issue's bar is a gain of at most 5 points.

Usage: python benchmarks/superset.py [--runs 6] [--tiers tier-1,tier-2,tier-3,tier-4]
"""

from __future__ import annotations

import argparse
import json
import math
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from statistics import mean

from specsnap.grading import grade_repository
from specsnap.tier.draws import draw, template_values, values_for
from specsnap.tier.loading import load_tier
from specsnap.tier.model import Tier
from specsnap.tier.solutions import build_repository, requirement_patches

ROOT = Path(__file__).resolve().parents[1]


def memorised(tier: Tier, run_seed: int, memo_seed: int, dest: Path) -> float:
    """Raw retention of seed `memo_seed`'s reference, with run_seed's names, graded for run_seed."""
    mine, learnt = draw(tier, run_seed), draw(tier, memo_seed)
    names = {p.name for r in tier.requirements for p in r.params if p.is_name}
    mixed = {k: mine[k] if k in names else v for k, v in learnt.items()}
    patches = requirement_patches(tier, [r.id for r in tier.requirements])
    repo = build_repository(tier, dest, patches, template_values(tier, mixed))
    flags = grade_repository(tier, repo, values_for(tier, run_seed)).passed_flags
    return sum(flags) / len(flags)


def amnesiac(tier: Tier, seed: int, out: Path) -> float:
    argv = [sys.executable, "-m", "specsnap", "run", "--tier", str(tier.root), "--seed", str(seed)]
    argv += ["--agent", "amnesiac", "--agent-opt", "meter=off", "--out", str(out)]
    subprocess.run(argv, capture_output=True, check=False)
    return float(json.loads((out / "scorecard.json").read_text())["scores"]["raw_retention"])


def promised(tier: Tier) -> float:
    odds = [math.prod(len(p.choices) for p in r.params if not p.is_name) for r in tier.requirements]
    return mean(1 / n for n in odds)


def row(tier: Tier, runs: int, tmp: Path, pool: ThreadPoolExecutor) -> str:
    """One table row: run seeds 0..runs-1, each against two memorised seeds."""
    seeds = range(runs)
    pairs = [(s, m) for s in seeds for m in (s + 1, s + 7)]
    memo = list(
        pool.map(lambda p: memorised(tier, p[0], p[1], tmp / f"{tier.id}-{p[0]}-{p[1]}"), pairs)
    )
    forgot = list(pool.map(lambda s: amnesiac(tier, s, tmp / f"{tier.id}-a{s}"), seeds))
    gain = 100 * (mean(memo) - mean(forgot))
    return (
        f"| {tier.id} | {mean(memo):.1%} | {mean(forgot):.1%} | {gain:+.1f} | "
        f"{100 * promised(tier):.1f} | {len(pairs)} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=6, help="run seeds 0..N-1")
    parser.add_argument("--tiers", default="tier-1,tier-2,tier-3,tier-4")
    args = parser.parse_args()
    print("| tier | memoriser raw | amnesiac raw | gain (points) | promised gain | pairs |")
    print("|---|--:|--:|--:|--:|--:|")
    with (
        tempfile.TemporaryDirectory(prefix="specsnap-superset-") as tmp,
        ThreadPoolExecutor(2) as pool,
    ):
        Path(tmp).chmod(0o711)
        for name in args.tiers.split(","):
            print(
                row(load_tier(str(ROOT / "tiers" / name)), args.runs, Path(tmp), pool), flush=True
            )


if __name__ == "__main__":
    main()
