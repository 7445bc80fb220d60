"""A session's metered steps as an ATIF trajectory (Agent Trajectory Interchange Format, the
Harbor project's RFC 0001, v1.4): one agent step per model answer, its tool calls, the results
the next request handed back as the step's observation, and the answer's tokens. SpecSnap's own
reading of each call (kind, target) and the cut-off flag go in the step's `extra`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from specsnap.trajectory.kinds import kind_of, target_of
from specsnap.trajectory.steps import MeteredStep

SCHEMA_VERSION = "ATIF-v1.4"


def atif_document(
    session_id: str, agent: str, steps: Sequence[MeteredStep], dropped: int = 0
) -> dict[str, Any]:
    """The ATIF trajectory of one session's metered answers (in request order)."""
    later_results: dict[str, str] = {}
    for step in steps:
        later_results.update(step.results)
    body = [_step(n, step, later_results) for n, step in enumerate(steps, 1)]
    document: dict[str, Any] = {
        "schema_version": SCHEMA_VERSION,
        "session_id": session_id,
        "agent": {"name": agent, "version": "unknown"},
        "steps": body,
        "final_metrics": {
            "total_prompt_tokens": sum(_prompt(s) for s in steps),
            "total_completion_tokens": sum(s.usage.output for s in steps if s.usage),
            "total_cached_tokens": sum(s.usage.cache_read for s in steps if s.usage),
            "total_steps": len(steps) + dropped,
        },
        "notes": "Reconstructed by SpecSnap from the model answers its meter forwarded.",
    }
    if dropped:
        document["notes"] += f" {dropped} later answer(s) were counted but not kept."
    return document


def _step(n: int, step: MeteredStep, results: dict[str, str]) -> dict[str, Any]:
    out: dict[str, Any] = {
        "step_id": n,
        "source": "agent",
        "message": "",
        "extra": {
            "api": step.api,
            "torn": step.torn,
            "actions": [
                {"kind": kind_of(c.name), "target": target_of(c.arguments)} for c in step.calls
            ],
        },
    }
    if step.calls:
        out["tool_calls"] = [
            {"tool_call_id": c.call_id, "function_name": c.name, "arguments": c.arguments}
            for c in step.calls
        ]
        answered = [
            {"source_call_id": key, "content": results[key]}
            for key in (_result_key(c.call_id, c.name, results) for c in step.calls)
            if key is not None
        ]
        if answered:
            out["observation"] = {"results": answered}
    if step.usage is not None:
        out["metrics"] = {
            "prompt_tokens": _prompt(step),
            "completion_tokens": step.usage.output,
            "cached_tokens": step.usage.cache_read,
            "extra": {"cache_creation_input_tokens": step.usage.cache_write},
        }
    return out


def _result_key(call_id: str, name: str, results: dict[str, str]) -> str | None:
    """The key a call's result is filed under (Gemini files results by function name)."""
    return call_id if call_id in results else name if name in results else None


def _prompt(step: MeteredStep) -> int:
    """ATIF's prompt tokens include cache reads and writes (SpecSnap's `input` does not)."""
    u = step.usage
    return 0 if u is None else u.input + u.cache_read + u.cache_write
