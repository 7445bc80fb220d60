"""Cutoff latency and slip-through, measured on SpecSnap's own watcher and freeze.

Each trial starts a real writer process in its own session that rewrites a watched `.py` file
every 10 ms and, after each close(), stores the monotonic time and a sequence number in a shared
memory page. The production `CutoffWatcher` (inotify) fires on the first write and calls the
production `freeze()` (SIGSTOP of the process group). Latency = frozen − write complete; slip-
through = writes that completed after the triggering one. Prints median, p99 and max.

Usage: python benchmarks/cutoff_latency.py [--trials 220] [--interval-ms 10]
"""

from __future__ import annotations

import argparse
import mmap
import os
import statistics
import struct
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from specsnap.sessions.cutoff import CutoffWatcher, Firing
from specsnap.sessions.processes import SessionMarks, freeze, terminate

WRITER = r"""
import mmap, os, struct, sys, time
target, shm, interval = sys.argv[1], sys.argv[2], float(sys.argv[3])
fd = os.open(shm, os.O_RDWR)
page = mmap.mmap(fd, 4096)
for seq in range(1, 100000):
    handle = os.open(target, os.O_WRONLY | os.O_TRUNC)
    os.write(handle, f"VALUE = {seq}\n".encode())
    page[16:32] = struct.pack("qq", seq, time.monotonic_ns())  # the latest write, before close()
    os.close(handle)
    page[0:16] = struct.pack("qq", seq, time.monotonic_ns())  # the latest write, complete
    if seq == 1:
        page[32:48] = page[0:16]  # the first (triggering) write, complete
    time.sleep(interval)
"""


def trial(root: Path, interval_s: float) -> tuple[float, int] | None:
    pkg = root / "pkg"
    pkg.mkdir(exist_ok=True)
    target = pkg / "mod.py"
    target.write_text("VALUE = 0\n")
    shm = root / "shm"
    shm.write_bytes(b"\0" * 4096)
    fired = threading.Event()
    frozen_at: list[int] = []
    marks: list[SessionMarks] = []

    def on_fire(firing: Firing) -> int:
        frozen = freeze(marks[0])
        frozen_at.append(frozen)
        fired.set()
        return frozen

    watcher = CutoffWatcher(root, ("**/*.py",), (), on_fire)
    watcher.start()
    watcher.arm()
    proc = subprocess.Popen(
        [sys.executable, "-c", WRITER, str(target), str(shm), str(interval_s)],
        start_new_session=True,
    )
    marks.append(SessionMarks(pgid=proc.pid, token="bench"))
    ok = fired.wait(10)
    time.sleep(3 * interval_s)  # any write that slipped through would land now
    with open(shm, "rb") as handle:
        page = mmap.mmap(handle.fileno(), 4096, access=mmap.ACCESS_READ)
        _, _ = struct.unpack("qq", page[0:16])
        started_seq, first_before_close = struct.unpack("qq", page[16:32])
        first_seq, first_completed = struct.unpack("qq", page[32:48])
    terminate(marks[0], grace_s=0.1)
    proc.wait()
    watcher.stop()
    if not ok or started_seq == 0:
        return None
    # Frozen between close() and its time stamp: the stamp taken just before close() stands in
    # (it is earlier, so the latency reported is, if anything, too high).
    written = first_completed if first_seq == 1 else first_before_close
    # Writes that got as far as close() after the triggering one slipped through.
    return (frozen_at[0] - written) / 1e6, started_seq - 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=220)
    parser.add_argument("--interval-ms", type=float, default=10.0)
    args = parser.parse_args()
    latencies, slips, missing = [], [], 0
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(args.trials):
            root = Path(tmp) / str(i)
            root.mkdir()
            result = trial(root, args.interval_ms / 1000)
            if result is None:
                missing += 1
                continue
            latencies.append(result[0])
            slips.append(result[1])
    latencies.sort()
    p99 = latencies[max(0, int(len(latencies) * 0.99) - 1)]
    print(
        f"cutoff latency over {len(latencies)} edits (write complete -> frozen), "
        f"writer every {args.interval_ms:g} ms"
    )
    print(
        f"  median {statistics.median(latencies):.3f} ms   p99 {p99:.3f} ms   "
        f"max {latencies[-1]:.3f} ms   (target: median <= 5 ms)"
    )
    print(
        f"  writes slipped through after the triggering one: total {sum(slips)}, "
        f"max {max(slips)} per cutoff   (target: 0)"
    )
    if missing:
        print(f"  {missing} trial(s) gave no sample")
    print(f"  machine: {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
