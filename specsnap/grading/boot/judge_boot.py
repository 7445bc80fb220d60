"""Entry point of the judge (`python -P -s -S -B judge_boot.py CONFIG`).

The judge runs the tier's hidden tests with the grader's own pytest and configuration. Its
`sys.path` holds the grader's pytest and the bridge, never the graded tree: graded code reaches it
only as data, through subjects (bridge_judge.py). It writes its report outside anything a subject
can write.
"""

from __future__ import annotations

import json
import sys

with open(sys.argv[1], encoding="utf-8") as _handle:
    CONFIG = json.load(_handle)

sys.path[:0] = [*CONFIG["grader_paths"], CONFIG["boot_dir"]]

import judge_plugin  # noqa: E402  (after sys.path is set up)
import pytest  # noqa: E402
from specsnap_grade_report import GradeReport  # noqa: E402

bridge = judge_plugin.BridgePlugin(CONFIG)
report = GradeReport(CONFIG["report_path"], bridge.finish)
plugins = [bridge, judge_plugin, report]
# The hidden tests' compiled bytecode (asserts rewritten) is kept beside them, in SpecSnap's own
# cache (prepared.judge_root); -B kept the bridge's modules from leaving any in the workspace.
sys.dont_write_bytecode = False
sys.exit(int(pytest.main(CONFIG["pytest_args"], plugins=plugins)))
