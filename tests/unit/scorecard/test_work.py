"""The scorecard names every kind of risky move that specsnap.trajectory.risky reports: a kind it
did not know would make work.json an input error, and grading would stop on it."""

from __future__ import annotations

import inspect
import re
from typing import get_args

from specsnap.scorecard.model import SHELL_RISKS, RiskKind
from specsnap.trajectory import risky


def test_the_shell_kinds_are_the_rules_names() -> None:
    assert tuple(kind for kind, _rule in risky.SHELL_RULES) == SHELL_RISKS


def test_every_kind_the_history_reports_is_a_kind_of_the_model() -> None:
    reported = set(re.findall(r'RiskyMove\([^()]*"([a-z-]+)"\)', inspect.getsource(risky)))
    history = set(get_args(RiskKind)) - set(SHELL_RISKS)
    assert reported == history
