"""pytest plugin loaded by SpecSnap's grader (never by the agent): records every test's outcome.

In the judge it writes one JSON report, with the bridge's facts, where no subject can write. In
the subject that runs the visible tests it only collects the outcomes. It depends on pytest and
the standard library only.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

OUTCOME_RANK = {"passed": 0, "skipped": 1, "xfailed": 1, "xpassed": 1, "failed": 2, "error": 3}


class GradeReport:
    def __init__(self, path: str | None, extra: Callable[[], dict[str, Any]] | None) -> None:
        self.path = path
        self.extra = extra
        self.collected: list[str] = []
        self.outcomes: dict[str, str] = {}
        self.collect_errors: list[str] = []

    def _set(self, nodeid: str, outcome: str) -> None:
        # Keep the worst outcome of a test's setup, call and teardown phases.
        old = self.outcomes.get(nodeid)
        if old is None or OUTCOME_RANK[outcome] > OUTCOME_RANK[old]:
            self.outcomes[nodeid] = outcome

    @pytest.hookimpl(trylast=True)
    def pytest_collection_finish(self, session: pytest.Session) -> None:
        self.collected = [item.nodeid for item in session.items]

    def pytest_collectreport(self, report: pytest.CollectReport) -> None:
        if report.failed:
            self.collect_errors.append(report.nodeid)

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        xfail = hasattr(report, "wasxfail")
        if report.failed:
            self._set(report.nodeid, "failed" if report.when == "call" else "error")
        elif report.skipped:
            self._set(report.nodeid, "xfailed" if xfail else "skipped")
        elif report.when == "call":
            self._set(report.nodeid, "xpassed" if xfail else "passed")
        else:
            self.outcomes.setdefault(report.nodeid, "passed" if report.when == "setup" else "error")

    def as_dict(self) -> dict[str, Any]:
        return {
            "collected": self.collected,
            "outcomes": self.outcomes,
            "collect_errors": self.collect_errors,
        }

    @pytest.hookimpl(trylast=True)
    def pytest_sessionfinish(self, session: pytest.Session, exitstatus: Any) -> None:
        if self.path is None:
            return
        data = {**self.as_dict(), "exitstatus": int(exitstatus)}
        if self.extra is not None:
            data["bridge"] = self.extra()
        with open(self.path, "w", encoding="utf-8") as handle:
            json.dump(data, handle)
