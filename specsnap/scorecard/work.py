"""The scorecard's "how the work went" section, from the run's work.json (specsnap.trajectory.work).

work.json is an input like a session record: it is decoded strictly (DecodeError names the bad
key), and what the agent controls in it (paths, commands) is bounded here, so every rebuild of
the scorecard from the same file comes out the same.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from specsnap.scorecard.codec import DecodeError, from_json
from specsnap.scorecard.model import (
    SHELL_RISKS,
    AgentTests,
    Continuity,
    Maintainability,
    RiskyMove,
    Work,
    WorkSession,
)

#: Longest path or command kept from the agent's text (the rest is cut, with an ellipsis).
TARGET_MAX = 200
#: Risky moves listed; beyond them they are only counted (`Work.risky_moves_total`).
RISKY_MOVES_MAX = 100
#: Paths, test ids and findings of the quality signals kept per list (the rest are counted or
#: left out).
LISTED_MAX = 20


def work_of(document: Any) -> Work:
    """The section from work.json's document."""
    if not isinstance(document, dict):
        raise DecodeError("", type(document).__name__, "an object")
    sessions = tuple(
        _session(entry, f"sessions[{i}]") for i, entry in enumerate(_list(document, "sessions"))
    )
    moves = [
        _move(entry, f"risky_moves[{i}]") for i, entry in enumerate(_list(document, "risky_moves"))
    ]
    tests = document.get("agent_tests")
    signals = document.get("maintainability")
    kept = document.get("continuity")
    return Work(
        sessions,
        tuple(moves[:RISKY_MOVES_MAX]),
        len(moves),
        _agent_tests(tests, "agent_tests") if tests is not None else None,
        _maintainability(signals, "maintainability") if signals is not None else None,
        _continuity(kept, "continuity") if kept is not None else None,
    )


def bounded(value: str) -> str:
    """`value`, at most TARGET_MAX characters."""
    return value if len(value) <= TARGET_MAX else value[: TARGET_MAX - 1] + "…"


def _list(document: Mapping[str, Any], key: str) -> list[Any]:
    value = document.get(key)
    if not isinstance(value, list):
        raise DecodeError(key, type(value).__name__ if key in document else "nothing", "a list")
    return value


def _session(entry: Any, path: str) -> WorkSession:
    """A session's entry: its summary (rediscovered files counted, the command bounded)."""
    if not isinstance(entry, dict):
        raise DecodeError(path, type(entry).__name__, "an object")
    record = dict(entry)
    trajectory = entry.get("trajectory")
    if isinstance(trajectory, dict):
        files = trajectory.get("rediscovered")
        if not isinstance(files, list):
            found = type(files).__name__ if "rediscovered" in trajectory else "nothing"
            raise DecodeError(f"{path}.trajectory.rediscovered", found, "a list of paths")
        command = trajectory.get("repeated_failing_command")
        record["trajectory"] = {
            **trajectory,
            "rediscovered_files": len(files),
            "repeated_failing_command": bounded(command) if isinstance(command, str) else command,
        }
    session: WorkSession = from_json(WorkSession, record, path)
    return session


def _move(entry: Any, path: str) -> RiskyMove:
    """A risky move: its target is the command of a shell move, else the file it concerns."""
    if not isinstance(entry, dict):
        raise DecodeError(path, type(entry).__name__, "an object")
    target = entry.get("target")
    if not isinstance(target, str):
        found = repr(target) if "target" in entry else "nothing"
        raise DecodeError(f"{path}.target", found, "a path or a command")
    record = {k: entry[k] for k in ("session", "where", "kind") if k in entry}
    record["command" if entry.get("kind") in SHELL_RISKS else "file"] = bounded(target)
    move: RiskyMove = from_json(RiskyMove, record, path)
    return move


def _agent_tests(entry: Any, path: str) -> AgentTests:
    """The agent's tests: what the agent named (files, test ids) bounded; without a measurement
    (only `why`), nothing counted."""
    if not isinstance(entry, dict):
        raise DecodeError(path, type(entry).__name__, "an object")
    record: dict[str, Any] = {"files": [], "tests": 0, "passed_with_all": 0, "credited": []}
    record["requirements"] = []
    record.update(entry)
    record["files"] = _bounded_list(record["files"], f"{path}.files")
    requirements = record["requirements"]
    if not isinstance(requirements, list):
        raise DecodeError(f"{path}.requirements", type(requirements).__name__, "a list")
    record["requirements"] = [
        {**r, "tests": _bounded_list(r.get("tests"), f"{path}.requirements[{i}].tests")}
        if isinstance(r, dict)
        else r
        for i, r in enumerate(requirements)
    ]
    tests: AgentTests = from_json(AgentTests, record, path)
    return tests


def _maintainability(entry: Any, path: str) -> Maintainability:
    """The diff's signals: the paths and findings bounded, the refused files counted."""
    if not isinstance(entry, dict):
        raise DecodeError(path, type(entry).__name__, "an object")
    record: dict[str, Any] = {"out_of_scope": [], "dead_code": [], "dead_code_total": 0}
    record["unparsed"] = []
    record.update(entry)
    outside = record["out_of_scope"]
    record["out_of_scope"] = _bounded_list(outside, f"{path}.out_of_scope")
    record["out_of_scope_total"] = len(outside)
    record["dead_code"] = _bounded_list(record["dead_code"], f"{path}.dead_code")
    unparsed = record["unparsed"]
    if not isinstance(unparsed, list):
        raise DecodeError(f"{path}.unparsed", type(unparsed).__name__, "a list of paths")
    record["unparsed"] = len(unparsed)
    most = record.get("most_complex")
    record["most_complex"] = bounded(most) if isinstance(most, str) else most
    signals: Maintainability = from_json(Maintainability, record, path)
    return signals


def _continuity(entry: Any, path: str) -> Continuity:
    """The amendments' continuity: the statements listed bounded (their file and line text),
    all counted; without a measurement (only `why`), no amendment."""
    if not isinstance(entry, dict):
        raise DecodeError(path, type(entry).__name__, "an object")
    record: dict[str, Any] = {"amendments": [], **entry}
    amendments = record["amendments"]
    if not isinstance(amendments, list):
        raise DecodeError(f"{path}.amendments", type(amendments).__name__, "a list")
    record["amendments"] = [
        _amendment(a, f"{path}.amendments[{i}]") for i, a in enumerate(amendments)
    ]
    kept: Continuity = from_json(Continuity, record, path)
    return kept


def _amendment(entry: Any, path: str) -> dict[str, Any]:
    if not isinstance(entry, dict):
        raise DecodeError(path, type(entry).__name__, "an object")
    found = entry.get("statements")
    if not isinstance(found, list) or not all(isinstance(s, dict) for s in found):
        raise DecodeError(f"{path}.statements", type(found).__name__, "a list of objects")
    statements = [
        {
            k: bounded(v) if k in ("file", "text", "says") and isinstance(v, str) else v
            for k, v in s.items()
        }
        for s in found[:LISTED_MAX]
    ]
    total = entry.get("statements_total", len(found))
    if isinstance(total, int) and total < len(found):
        total = len(found)
    return {**entry, "statements": statements, "statements_total": total}


def _bounded_list(value: Any, path: str) -> list[str]:
    """The first LISTED_MAX strings of `value`, each bounded."""
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise DecodeError(path, type(value).__name__, "a list of strings")
    return [bounded(v) for v in value[:LISTED_MAX]]
