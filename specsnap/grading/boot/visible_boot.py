"""The pristine visible tests, run inside a subject (`python -P -s -S -B visible_boot.py CONFIG`).

The starter's visible tests import the graded code directly, so they run in a subject process,
never in the judge. Graded code can tamper with this run; that can only hide a failure, never
earn a point: the gate's verdict comes from the judge's own baseline tests, and a failure here
can only fail the gate. The outcome counts go to the grader on a pipe it holds.
"""

from __future__ import annotations

import json
import os
import sys

CONFIG = json.loads(sys.argv[1])
sys.path[:0] = [*CONFIG["grader_paths"], CONFIG["boot_dir"]]
sys.path.extend(CONFIG["code_paths"])
if CONFIG.get("network_guard"):
    from subject_guard import guard_network

    guard_network()

import pytest  # noqa: E402
from specsnap_grade_report import GradeReport  # noqa: E402

report = GradeReport(None, None)
code = pytest.main(CONFIG["pytest_args"], plugins=[report])
summary = json.dumps({"exit_code": int(code), **report.as_dict()}).encode()
os.write(CONFIG["result_fd"], summary)
sys.exit(int(code))
