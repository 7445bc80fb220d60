"""Stage II against cheap habits: what the controls and two habits score on every tier.

Plays whole Stage II runs (`specsnap run --stage 2`, every perturbation, the meter off: the
controls use no model) on tiers 1-4 for:

- notetaker; tracker (checks its notes against the tracker and repairs at the cause);
- amnesiac (keeps nothing);
- reader: an amnesiac that reads every ticket after each cutoff and redoes the sprint from it
  (`--agent-opt habits=read-every-ticket`);
- reader+revert: the same, also reverting every teammate commit that renames nothing;
- notetaker+revert: a notetaker that only adds the revert.

Prints one row per tier and agent: raw, net, retention without recovery ("kept"), PASS, and
the requirements recovered. docs/protocol.md ("The controls in Stage II") quotes the result.

Usage: python benchmarks/stage2_habits.py [--seed 5] [--tiers tier-1,tier-2,tier-3,tier-4]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
AGENTS = {
    "notetaker": ("notetaker", ""),
    "tracker": ("tracker", ""),
    "amnesiac": ("amnesiac", ""),
    "reader": ("amnesiac", "read-every-ticket"),
    "reader+revert": ("amnesiac", "read-every-ticket,revert-teammates"),
    "notetaker+revert": ("notetaker", "revert-teammates"),
}


def play(tier: str, seed: int, agent: str, habits: str, out: Path) -> dict:
    argv = [sys.executable, "-m", "specsnap", "run", "--tier", str(ROOT / "tiers" / tier)]
    argv += ["--seed", str(seed), "--stage", "2", "--agent", agent, "--out", str(out)]
    argv += ["--agent-opt", "meter=off"]
    if habits:
        argv += ["--agent-opt", f"habits={habits}"]
    proc = subprocess.run(argv, capture_output=True, text=True, check=False)
    if not (out / "scorecard.json").is_file():
        raise SystemExit(f"{tier} {agent}: no scorecard\n{proc.stderr}")
    return json.loads((out / "scorecard.json").read_text())


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--tiers", default="tier-1,tier-2,tier-3,tier-4")
    args = parser.parse_args()
    print("| tier | agent | raw | net | kept | PASS | recovered |")
    print("|---|---|--:|--:|--:|---|---|")
    with tempfile.TemporaryDirectory(prefix="specsnap-habits-") as tmp:
        Path(tmp).chmod(0o711)
        for tier in args.tiers.split(","):
            for label, (agent, habits) in AGENTS.items():
                card = play(tier, args.seed, agent, habits, Path(tmp) / f"{tier}-{label}")
                s = card["scores"]
                recovered = [r for r in card["requirements"] if r.get("retention") == "recovered"]
                print(
                    f"| {tier[-1]} | {label} | {s['raw_retention']:.1%} | {s['net_retention']:.1%} "
                    f"| {s['retained_without_recovery']:.1%} | {'yes' if s['pass'] else 'no'} "
                    f"| {len(recovered)} |",
                    flush=True,
                )


if __name__ == "__main__":
    main()
