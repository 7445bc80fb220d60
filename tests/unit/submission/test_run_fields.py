"""run.json from a bundle holds exactly a run's fields, each of the type `Run` declares."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

from specsnap.rundir import Run
from specsnap.submission.verification import _run_field_problems


def run_json() -> dict[str, object]:
    run = Run(Path("/x"), "/t", "tier-1", "a" * 64, 3, "notetaker", baseline_commit="b" * 40)
    fields = dataclasses.asdict(run)
    fields["run_dir"] = None
    return json.loads(json.dumps(fields))  # type: ignore[no-any-return]


def test_a_run_as_prepare_saves_it_is_fine() -> None:
    assert _run_field_problems(run_json()) == []


def test_unknown_missing_and_mistyped_fields_are_each_named() -> None:
    fields = run_json()
    fields.update(extra=1, seed=True, sessions_done="1,2", agent_options=["x"])
    del fields["agent"]
    assert _run_field_problems(fields) == [
        "run.json: unknown key 'extra'",
        "run.json: no 'agent'",
        "run.json: seed is True",
        "run.json: agent_options is ['x']",
        "run.json: sessions_done is '1,2'",
    ]


def test_contents_of_lists_and_maps_are_checked() -> None:
    fields = run_json()
    fields.update(sessions_done=["../../etc"], agent_options={"k": 1}, baseline_commit="HEAD")
    assert _run_field_problems(fields) == [
        "run.json: agent_options must map names to strings",
        "run.json: sessions_done must list session numbers",
        "run.json: baseline_commit is not a commit id",
    ]
