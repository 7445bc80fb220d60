"""The review's fixed rubric: five concrete questions, each rated 1 (worst) to 5 (best) with a
required one-line reason (pure)."""

from __future__ import annotations

from dataclasses import dataclass

LOWEST, HIGHEST = 1, 5
#: A reason is one line, at most this long.
REASON_MAX = 300


@dataclass(frozen=True)
class Question:
    key: str  # q1..q5: how ratings name it
    name: str  # a word for tables
    text: str
    scale: str  # what 1 and 5 mean


RUBRIC: tuple[Question, ...] = (
    Question(
        "q1",
        "duplication",
        "Is logic duplicated?",
        "1: the change copies logic that exists or repeats itself; 5: no duplication",
    ),
    Question(
        "q2",
        "scope",
        "Is the change scoped to the request?",
        "1: it changes much the requirements did not ask for; 5: only what was asked",
    ),
    Question(
        "q3",
        "clarity",
        "Could a newcomer follow it?",
        "1: hard to follow without the agent's context; 5: a newcomer reads it at once",
    ),
    Question(
        "q4",
        "repair",
        "Was the regression fixed at its cause?",
        "1: a symptom patched (or nothing fixed); 5: fixed where it arose",
    ),
    Question(
        "q5",
        "acceptance",
        "Would you accept this pull request?",
        "1: reject; 3: only with substantial changes; 5: merge as is",
    ),
)
KEYS: tuple[str, ...] = tuple(q.key for q in RUBRIC)
BY_KEY = {q.key: q for q in RUBRIC}
