"""The bridge's cost per call: a judge-side call of a graded function, answered by a subject.

Starts one real subject (as grading does: the subject account, its namespaces) on the fixture
tier's exported starter and times N calls of `units.to_grams(2, "kg")` (a remote attribute
lookup plus a call), then N `subject.value()` round trips; prints the median cost
of each and the subject's start-up time.

Usage: python benchmarks/bridge_calls.py [--calls 2000]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

from specsnap.grading.isolation import grading_workspace, subject_launchers
from specsnap.grading.testrun import prepare_workspace
from specsnap.tiers import load_tier

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "specsnap" / "grading" / "boot"))
from bridge_judge import Subject  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=2000)
    args = parser.parse_args()
    import os
    import shutil

    os.environ.setdefault("SPECSNAP_TIERS_DIR", str(ROOT / "tests" / "fixtures" / "tiers"))
    tier = load_tier("tier-90")
    with subject_launchers() as subjects, grading_workspace(subjects.first) as work:
        shutil.copytree(tier.starter, work / "export")
        prepare_workspace(tier, work)
        launcher = subjects.first
        config = {
            "code_paths": [str(work / "export")],
            "boot_dir": str(work / "boot"),
            "scratch_root": str(work / "scratch"),
            "inputs_dir": str(work / "inputs"),
            "network_guard": not launcher.network_isolated,
            "call_timeout_s": 10,
        }
        started = time.perf_counter()
        launch = launcher.judge_entry(work / "boot" / "bridge_subject.py")
        subject = Subject(config, launch, "bench", 1)
        units = subject.module("units")
        startup = time.perf_counter() - started
        calls, values = [], []
        for _ in range(args.calls):
            t = time.perf_counter()
            units.to_grams(2, "kg")
            calls.append(time.perf_counter() - t)
        module = units.convert
        for _ in range(args.calls):
            t = time.perf_counter()
            subject.value(module)
            values.append(time.perf_counter() - t)
        subject.close()
    print(f"bridge ({launcher.isolation}, network isolated: {launcher.network_isolated})")
    print(f"  subject start + first import   {startup * 1000:7.1f} ms")
    print(f"  remote attribute + call        {statistics.median(calls) * 1e6:7.1f} µs median")
    print(f"  value() round trip             {statistics.median(values) * 1e6:7.1f} µs median")


if __name__ == "__main__":
    main()
