"""SpecSnap's error hierarchy: one base class, and the exit code each kind maps to (STYLE.md).

Exit codes: 0 ran and passed, 1 ran and did not pass, 2 bad usage or bad input,
3 infrastructure failure (never confused with an agent's failure).
"""

from __future__ import annotations

from dataclasses import dataclass


class SpecSnapError(Exception):
    """Base of every expected failure; the CLI prints the message without a traceback."""

    exit_code = 3


class UsageError(SpecSnapError):
    """The caller asked for something that cannot be done as asked (unknown name, wrong order)."""

    exit_code = 2


@dataclass(frozen=True)
class Problem:
    """One thing wrong with an input file: where, what was found, and what was expected."""

    file: str
    key: str
    value: str
    expected: str

    def __str__(self) -> str:
        return f"{self.file}: {self.key}: got {self.value}; expected {self.expected}"


class InputError(UsageError):
    """An input file (tier.yaml, wiring.yaml, scorecard) is malformed; lists every problem."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = problems
        lines = "\n".join(f"  - {p}" for p in problems)
        super().__init__(f"{len(problems)} problem(s) found:\n{lines}")


class InfrastructureError(SpecSnapError):
    """SpecSnap itself could not do its job (git, pytest or the OS failed), not the agent."""

    exit_code = 3
