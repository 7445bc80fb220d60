"""The grader's overhead: `specsnap grade` against one bare pytest run of the same tests.

Builds a run of a tier with the notetaker (the reference solution committed), then times, N times
each, `specsnap grade RUN_DIR` (the whole command: export, static checks, the judge, a fresh
subject per requirement, the visible tests' subject, the scorecard) and one bare `pytest` of the
same hidden and visible tests on the same exported tree, in one process, with the bridge's test
API served in-process (benchmarks/local_subject.py). Prints the medians and the ratio
(target: <= 1.5x).

Usage: python benchmarks/grade_overhead.py [--tier 2] [--repeat 5]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from specsnap.sandbox.gitrepo import export_commit, rev_parse
from specsnap.tier.draws import values_for
from specsnap.tier.loading import load_tier

ROOT = Path(__file__).resolve().parents[1]


def timed(argv: list[str], **kwargs: object) -> float:
    started = time.perf_counter()
    subprocess.run(
        argv, check=False, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, **kwargs
    )  # type: ignore[call-overload]
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tier", default="2")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    tier = load_tier(args.tier)
    specsnap = [sys.executable, "-m", "specsnap"]
    with tempfile.TemporaryDirectory(dir="/tmp") as tmp:
        root = Path(tmp)
        root.chmod(0o711)
        run = root / "run"
        subprocess.run(
            [
                *specsnap,
                "run",
                "--tier",
                args.tier,
                "--seed",
                str(args.seed),
                "--agent",
                "notetaker",
                "--out",
                str(run),
            ],
            check=True,
            capture_output=True,
        )
        bare = root / "bare"
        bare.mkdir()
        export_commit(run / "sandbox", rev_parse(run / "sandbox") or "HEAD", bare)
        shutil.copytree(tier.grader, bare / "_hidden")
        hidden = [f"_hidden/{t}" for r in tier.requirements for t in r.tests]
        hidden += [f"_hidden/{t}" for t in tier.hidden_baseline]
        boot = ROOT / "specsnap" / "grading" / "boot"
        pytest_argv = [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "-p",
            "local_subject",
            *hidden,
            *tier.visible_tests,
        ]
        env = dict(
            os.environ,
            PYTHONPATH=os.pathsep.join([str(bare), str(boot), str(ROOT / "benchmarks")]),
            SPECSNAP_BENCH_PARAMS=json.dumps(values_for(tier, args.seed)),
        )
        check = subprocess.run(pytest_argv, cwd=bare, env=env, capture_output=True, text=True)
        if check.returncode != 0:
            raise SystemExit(f"the bare run does not pass:\n{check.stdout[-2000:]}")
        grade_times, bare_times = [], []
        for _ in range(args.repeat):
            (run / "scorecard.json").unlink(missing_ok=True)
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
