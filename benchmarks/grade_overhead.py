"""The grader's overhead: `specsnap grade` on tier 2 against a bare pytest run of the same tests.

Builds a tier-2 run with the notetaker (reference solution committed), then times, N times each,
`specsnap grade RUN_DIR` (the whole command: export, isolation, static and runtime wiring checks,
scorecard) and a bare `python -m pytest` of the same hidden and visible tests on the same exported
tree. Prints medians and the ratio (target: <= 1.5x).

Usage: python benchmarks/grade_overhead.py [--tier 2] [--repeat 5]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from specsnap.gitrepo import export_commit, rev_parse
from specsnap.tiers import load_tier


def timed(argv: list[str], **kwargs: object) -> float:
    started = time.perf_counter()
    subprocess.run(
        argv, check=False, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, **kwargs
    )  # type: ignore[call-overload]
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tier", default="2")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    tier = load_tier(args.tier)
    specsnap = [sys.executable, "-m", "specsnap"]
    with tempfile.TemporaryDirectory(dir="/tmp") as tmp:
        root = Path(tmp)
        root.chmod(0o711)
        run = root / "run"
        subprocess.run(
            [*specsnap, "run", "--tier", args.tier, "--agent", "notetaker", "--out", str(run)],
            check=True,
            capture_output=True,
        )
        bare = root / "bare"
        bare.mkdir()
        export_commit(run / "sandbox", rev_parse(run / "sandbox") or "HEAD", bare)
        shutil.copytree(tier.grader, bare / "_hidden")
        hidden = [f"_hidden/{t}" for r in tier.requirements for t in r.tests]
        hidden += [f"_hidden/{t}" for t in tier.hidden_baseline]
        pytest_argv = [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            *hidden,
            *tier.visible_tests,
        ]
        env = dict(os.environ, PYTHONPATH=str(bare))
        grade_times, bare_times = [], []
        for _ in range(args.repeat):
            grade_times.append(timed([*specsnap, "grade", str(run)]))
            bare_times.append(timed(pytest_argv, cwd=bare, env=env))
    g, b = statistics.median(grade_times), statistics.median(bare_times)
    count = len(hidden) + tier.visible_count
    print(f"{tier.id}: {count} tests, median of {args.repeat} runs each")
    print(f"  specsnap grade    {g:6.2f} s")
    print(f"  bare pytest       {b:6.2f} s")
    print(f"  ratio             {g / b:6.2f}x   (target: <= 1.5x)")


if __name__ == "__main__":
    main()
