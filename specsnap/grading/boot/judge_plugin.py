"""The judge's pytest plugin: one live subject per group of tests, and the fixtures tests use.

Registered by judge_boot.py. A group is a requirement's tests, or the hidden baseline tests;
every group gets a fresh subject process (bridge_judge.Subject), so no state passes from one
requirement to another.
"""

from __future__ import annotations

import contextlib
import os
import threading
from typing import Any

import pytest
from bridge_judge import Subject


class Subjects:
    """One live subject per group of tests (a requirement, or the baseline).

    While one group's subject works, the next group's starts, warm, as the other account of the
    pair: when a group ends, its subject is closed and its account swept, and the spare takes
    over. No process of one requirement's account is alive when that account serves another.
    Closing the old subject and starting the next spare happen in the background, one step at
    a time (`_settle` waits for the step under way before anything else changes).

    A test is a strict exchange of messages between the judge and one subject (one waits while
    the other works), and waking a process on another CPU costs far more than switching on the
    same one (a round trip: 75 against 8 us on a 2-CPU virtual machine). So the judge stays on
    the CPU it started on, and the subject in use joins it; the spare starts on any CPU.
    """

    def __init__(self, config: dict[str, Any]) -> None:
        self.config = config
        self.launches: list[dict[str, Any]] = list(config["subject_launchers"])
        self.current: Subject | None = None
        self.spare: Subject | None = None
        self.retiring: Subject | None = None  # the last group's subject, until the next step
        self.count = 0
        self.imports: list[dict[str, Any]] = []
        self.problems: list[str] = []
        self.every_cpu = _affinity()
        self.judge_cpu = _current_cpu()
        if self.judge_cpu is not None:
            _pin(0, self.judge_cpu)
        self._step: threading.Thread | None = None

    def prestart(self) -> None:
        """Start the first subject while pytest collects the tests."""
        self._background(None, self.launches[0])

    def for_group(self, group: str) -> Subject:
        current = self.current
        if current is not None and current.group == group and current.process.poll() is None:
            return current
        self.retire()
        self._settle()
        old, self.retiring = self.retiring, None
        spare, self.spare = self.spare, None
        if spare is None or spare.process.poll() is not None:
            launch = self.launches[0] if old is None else self._other(old.launch)
            if spare is not None:
                self._end(spare)
                launch = spare.launch
            spare = self._start(launch, group)
        spare.group = group
        self.current = spare
        if self.judge_cpu is not None:
            _pin(spare.process.pid, self.judge_cpu)
        self._background(old, self._other(spare.launch))
        return spare

    def retire(self) -> None:
        """Set the current group's subject aside; the next step ends it (`for_group` hands
        `retiring` to that step before it sets a new current subject, so nothing is set aside
        twice)."""
        if self.current is not None:
            self.retiring, self.current = self.current, None

    def finish(self) -> None:
        self.retire()
        self._settle()
        for subject in (self.retiring, self.spare):
            if subject is not None:
                self._end(subject)
        self.retiring = self.spare = None

    def _start(self, launch: dict[str, Any], group: str) -> Subject:
        self.count += 1
        subject = Subject(self.config, launch, group, self.count)
        if self.every_cpu is not None:
            _pin(subject.process.pid, self.every_cpu)
        return subject

    def _other(self, launch: dict[str, Any]) -> dict[str, Any]:
        return self.launches[1] if launch is self.launches[0] else self.launches[0]

    def _background(self, old: Subject | None, launch: dict[str, Any]) -> None:
        """In the background: end `old`, then start the spare as `launch` (old's account, once
        swept, or a free one)."""

        def step() -> None:
            if old is not None:
                self._end(old)
            self.spare = self._start(launch, "(spare)")

        self._settle()
        self._step = threading.Thread(target=step, daemon=True)
        self._step.start()

    def _settle(self) -> None:
        if self._step is not None:
            self._step.join()
            self._step = None

    def _end(self, subject: Subject) -> None:
        subject.close()
        self.problems += subject.problems
        for kind, name, source, line in subject.imports:
            self.imports.append(
                {"group": subject.group, "kind": kind, "name": name, "file": source, "line": line}
            )


def _affinity() -> set[int] | None:
    try:
        return os.sched_getaffinity(0)
    except (OSError, AttributeError):
        return None


def _current_cpu() -> set[int] | None:
    """The CPU this process runs on now (field 39 of /proc/self/stat), as an affinity mask."""
    try:
        with open("/proc/self/stat", encoding="ascii") as stat:
            return {int(stat.read().rsplit(")", 1)[1].split()[36])}
    except (OSError, ValueError, IndexError):
        return None


def _pin(pid: int, cpus: set[int]) -> None:
    with contextlib.suppress(OSError, AttributeError):
        os.sched_setaffinity(pid, cpus)


class BridgePlugin:
    """A fresh subject whenever the group of tests changes; the state behind the fixtures."""

    def __init__(self, config: dict[str, Any]) -> None:
        global _ACTIVE
        self.config = config
        self.subjects = Subjects(config)
        self.groups: dict[str, str] = config["groups"]
        self.subjects.prestart()
        _ACTIVE = self

    def group_of(self, nodeid: str) -> str:
        return self.groups.get(nodeid, "(ungrouped)")

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtest_setup(self, item: pytest.Item) -> None:
        current = self.subjects.current
        if current is not None and current.group != self.group_of(item.nodeid):
            self.subjects.retire()

    def finish(self) -> dict[str, Any]:
        self.subjects.finish()
        return {
            "imports": self.subjects.imports,
            "problems": self.subjects.problems,
            "subjects": self.subjects.count,
        }


_ACTIVE: BridgePlugin | None = None


def _active() -> BridgePlugin:
    if _ACTIVE is None:
        raise RuntimeError("the bridge's fixtures run only inside SpecSnap's judge")
    return _ACTIVE


# The judge registers this module as a plugin for these two fixtures.


@pytest.fixture
def subject(request: pytest.FixtureRequest) -> Subject:
    """The subject of the running test's group (its requirement, or the baseline)."""
    plugin = _active()
    return plugin.subjects.for_group(plugin.group_of(request.node.nodeid))


@pytest.fixture(scope="session")
def params() -> Any:
    """The run's seeded values, drawn and derived, read-only."""
    from types import MappingProxyType

    return MappingProxyType(dict(_active().config["params"]))
