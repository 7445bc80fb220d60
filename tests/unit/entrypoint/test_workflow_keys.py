"""The reusable workflow hands API keys to the session steps only, and every documented example
gets its key there; the default branch's evaluations are never cancelled."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from entrypoint.settings import read_settings
from specsnap.errors import InputError
from tests.support.workflow_player import substitute

ROOT = Path(__file__).resolve().parents[3]
EVALUATE = ROOT / ".github" / "workflows" / "evaluate.yml"
EXAMPLES = ROOT / "docs" / "examples" / "workflows"
SECRET = re.compile(r"secrets\.([A-Za-z_][A-Za-z0-9_]*)")
PRESENCE = re.compile(r"secrets\.[A-Za-z_][A-Za-z0-9_]*\s*!=\s*''")


def workflow(path: Path) -> dict[str, Any]:
    return yaml.safe_load(path.read_text())


def evaluate_steps() -> list[dict[str, Any]]:
    return workflow(EVALUATE)["jobs"]["evaluate"]["steps"]  # type: ignore[no-any-return]


def declared_secrets() -> set[str]:
    return set(workflow(EVALUATE)[True]["workflow_call"]["secrets"])  # `on:` parses as True


def test_only_session_steps_hold_keys_and_each_holds_every_key() -> None:
    steps = evaluate_steps()
    sessions = [s for s in steps if (s.get("with") or {}).get("step") == "session"]
    assert len(sessions) == 4
    for step in steps:
        text = yaml.safe_dump({k: step.get(k) for k in ("with", "env", "run")})
        if step in sessions:
            held = set(SECRET.findall(text))
            assert held == declared_secrets(), step["name"]
        else:
            # Elsewhere a secret may only be compared with '' (prepare's keys_present): an
            # expression that yields a name, never the value.
            assert not SECRET.findall(PRESENCE.sub("", text)), step.get("name", step.get("id"))
    assert "env" not in workflow(EVALUATE)["jobs"]["evaluate"]
    for name, job in workflow(EVALUATE)["jobs"].items():
        if name != "evaluate":
            assert not SECRET.findall(yaml.safe_dump(job)), name


def test_prepare_learns_which_keys_exist_by_name() -> None:
    (prepare,) = [s for s in evaluate_steps() if s.get("id") == "prepare"]
    value = prepare["with"]["keys_present"]
    ctx = {"secrets": {"GEMINI_API_KEY": "g-secret", "SPECSNAP_API_KEYS": '{"X": "x-secret"}'}}
    shown = substitute(value, ctx)
    assert shown.split() == ["GEMINI_API_KEY", "SPECSNAP_API_KEYS"]
    assert "secret" not in shown
    assert substitute(value, {"secrets": {}}).split() == []


@pytest.mark.parametrize("example", sorted(EXAMPLES.glob("*.yml")), ids=lambda p: p.name)
def test_every_example_hands_the_keys_it_names_and_never_cancels_the_base(example: Path) -> None:
    document = workflow(example)
    for job in document["jobs"].values():
        if "evaluate.yml" not in str(job.get("uses", "")):
            continue
        named = set(re.split(r"[\s,]+", str(job["with"].get("pass_env", "")))) - {""}
        assert named <= set(job.get("secrets") or {}), example.name
        assert set(job.get("secrets") or {}) <= declared_secrets(), example.name
    concurrency = document.get("concurrency") or {}
    cancel = concurrency.get("cancel-in-progress", False)
    assert cancel in (False, "${{ github.event_name == 'pull_request' }}"), example.name


def test_gemini_cli_has_an_example_that_gets_its_key() -> None:
    job = workflow(EXAMPLES / "gemini-cli.yml")["jobs"]["specsnap"]
    assert job["with"]["agent"] == "gemini-cli" and job["with"]["pass_env"] == "GEMINI_API_KEY"
    assert "GEMINI_API_KEY" in declared_secrets()


def test_api_keys_is_a_json_object_of_names_and_a_bad_one_never_shows_its_value() -> None:
    step = {"INPUT_STEP": "session", "INPUT_SESSION": "1", "INPUT_TIER": "2"}
    good = read_settings({**step, "INPUT_API_KEYS": '{"MISTRAL_API_KEY": "k1"}'})
    assert good.api_keys == {"MISTRAL_API_KEY": "k1"}
    assert "k1" not in repr(good)
    with pytest.raises(InputError) as raised:
        read_settings({**step, "INPUT_API_KEYS": '{"bad name": "k2-secret"}'})
    assert "api_keys" in str(raised.value) and "k2-secret" not in str(raised.value)
