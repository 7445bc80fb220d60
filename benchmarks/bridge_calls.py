"""The bridge's cost per call: a judge-side call of a graded function, answered by a subject.

Starts one real subject (as grading does: the subject account, its namespaces) on the fixture
tier's exported starter and times N calls of `units.to_grams(2, "kg")` (a remote attribute
lookup plus a call), then N `subject.value()` round trips; prints the median cost
of each and the subject's start-up time, first with the two processes on any CPU, then on one
CPU as the judge runs them (judge_plugin.Subjects).

Usage: python benchmarks/bridge_calls.py [--calls 2000]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from specsnap.grading.isolation import grading_workspace, subject_launchers
from specsnap.grading.testrun import prepare_workspace
from specsnap.tier.loading import load_tier

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "specsnap" / "grading" / "boot"))
from bridge_judge import Subject  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=2000)
    args = parser.parse_args()
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
        every_cpu = os.sched_getaffinity(0)
        timings = {"any CPU": time_calls(subject, units, args.calls)}
        one = {min(every_cpu)}
        os.sched_setaffinity(0, one)
        os.sched_setaffinity(subject.process.pid, one)
        timings["one CPU"] = time_calls(subject, units, args.calls)
        os.sched_setaffinity(0, every_cpu)
        subject.close()
    print(f"bridge ({launcher.isolation}, network isolated: {launcher.network_isolated})")
    print(f"  subject start + first import   {startup * 1000:7.1f} ms")
    for where, (calls, values) in timings.items():
        call, value = statistics.median(calls) * 1e6, statistics.median(values) * 1e6
        print(f"  {where}: remote attribute + call  {call:7.1f} µs median")
        print(f"  {where}: value() round trip       {value:7.1f} µs median")


def time_calls(subject: Subject, units: Any, count: int) -> tuple[list[float], list[float]]:
    calls, values = [], []
    for _ in range(count):
        started = time.perf_counter()
        units.to_grams(2, "kg")
        calls.append(time.perf_counter() - started)
    module = units.convert
    for _ in range(count):
        started = time.perf_counter()
        subject.value(module)
        values.append(time.perf_counter() - started)
    return calls, values


if __name__ == "__main__":
    main()
