"""What the meter keeps of each billed answer for the trajectory: the answer's tool calls, the
tool results its request handed back, and its tokens. Bounded: at most MAX_STEPS per session."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from specsnap.scorecard.model import Tokens
from specsnap.trajectory.calls import ToolCall, answer_calls, request_results

#: The most answers one session's trajectory keeps; later ones are counted, not kept.
MAX_STEPS = 5000


@dataclass(frozen=True)
class MeteredStep:
    """One model answer: its order among the session's requests, API, calls, results, tokens."""

    seq: int
    api: str
    calls: tuple[ToolCall, ...]
    results: Mapping[str, str]
    usage: Tokens | None
    torn: bool  # still arriving when the meter stopped


def metered_step(
    seq: int,
    api: str,
    request: bytes | None,
    objects: Iterable[Mapping[str, Any]],
    usage: Tokens | None,
    torn: bool,
) -> MeteredStep:
    """The step of one answer, from its request's body and the answer's JSON objects."""
    try:
        body = json.loads(request or b"{}")
    except ValueError:
        body = None
    return MeteredStep(seq, api, tuple(answer_calls(objects)), request_results(body), usage, torn)
