#!/usr/bin/env bash
# Print SpecSnap's performance figures: grading overhead, the bridge's cost per call, cutoff
# latency, the meter's added time to first byte, the curriculum ledger and leaderboard page at
# scale.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
py=.venv/bin/python
[ -x "$py" ] || py=python3
"$py" benchmarks/grade_overhead.py "$@"
"$py" benchmarks/bridge_calls.py
"$py" benchmarks/cutoff_latency.py
"$py" benchmarks/meter_latency.py
"$py" benchmarks/ledger_scale.py --entries 5000
