"""The judge's pytest plugin: one live subject per group of tests, and the fixtures tests use.

Registered by judge_boot.py. A group is a requirement's tests, or the hidden baseline tests;
every group gets a fresh subject process (bridge_judge.Subject), so no state passes from one
requirement to another.
"""

from __future__ import annotations

from typing import Any

import pytest
from bridge_judge import Subject


class Subjects:
    """One live subject per group of tests (a requirement, or the baseline).

    While one group's subject works, the next group's starts, warm, as the other account of the
    pair: when a group ends, its subject is closed and its account swept, and the spare takes
    over. No process of one requirement's account is alive when that account serves another.
    """

    def __init__(self, config: dict[str, Any]) -> None:
        self.config = config
        self.launches: list[dict[str, Any]] = list(config["subject_launchers"])
        self.current: Subject | None = None
        self.spare: Subject | None = None
        self.count = 0
        self.imports: list[dict[str, Any]] = []
        self.problems: list[str] = []

    def _start(self, launch: dict[str, Any], group: str) -> Subject:
        self.count += 1
        return Subject(self.config, launch, group, self.count)

    def _other(self, subject: Subject) -> dict[str, Any]:
        return self.launches[1] if subject.launch is self.launches[0] else self.launches[0]

    def for_group(self, group: str) -> Subject:
        current = self.current
        if current is not None and (current.group != group or current.process.poll() is not None):
            self.retire()
            current = None
        if current is None:
            spare, self.spare = self.spare, None
            if spare is not None and spare.process.poll() is None:
                spare.group = group
                current = spare
            else:
                if spare is not None:
                    self._end(spare)
                current = self._start(self.launches[0], group)
            self.current = current
            self.spare = self._start(self._other(current), "(spare)")
        return current

    def retire(self) -> None:
        if self.current is not None:
            subject, self.current = self.current, None
            self._end(subject)

    def finish(self) -> None:
        self.retire()
        if self.spare is not None:
            spare, self.spare = self.spare, None
            self._end(spare)

    def _end(self, subject: Subject) -> None:
        subject.close()
        self.problems += subject.problems
        for kind, name, source, line in subject.imports:
            self.imports.append(
                {"group": subject.group, "kind": kind, "name": name, "file": source, "line": line}
            )


class BridgePlugin:
    """A fresh subject whenever the group of tests changes; the state behind the fixtures."""

    def __init__(self, config: dict[str, Any]) -> None:
        global _ACTIVE
        self.config = config
        self.subjects = Subjects(config)
        self.groups: dict[str, str] = config["groups"]
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
