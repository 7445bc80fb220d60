from __future__ import annotations

import json
from pathlib import Path

import pytest

from entrypoint.settings import Step, read_settings
from specsnap.errors import InputError
from specsnap.publish.pipeline import CommentMode
from specsnap.publish.policy import FailOn


def env(tmp_path: Path, **inputs: str) -> dict[str, str]:
    base = {
        "GITHUB_WORKSPACE": str(tmp_path),
        "GITHUB_REPOSITORY": "octo/agent",
        "GITHUB_SHA": "a" * 40,
        "GITHUB_SERVER_URL": "https://github.example",
        "GITHUB_RUN_ID": "99",
        "GITHUB_API_URL": "https://github.example/api/v3",
        "GITHUB_EVENT_NAME": "push",
    }
    return base | {f"INPUT_{k.upper()}": v for k, v in inputs.items()}


def test_a_full_run_reads_every_input(tmp_path: Path) -> None:
    settings = read_settings(
        env(
            tmp_path,
            step="all",
            tier="2",
            seed="7",
            agent="notetaker",
            agent_options="model = x\nmax_turns=3",
            pass_env="ANTHROPIC_API_KEY, OTHER_KEY",
            github_token="t0k",
            comment_mode="failures",
            fail_on="gate",
            check_run="false",
        )
    )
    assert settings.step is Step.ALL and settings.tier == "tier-2" and settings.seed == 7
    assert settings.run_dir == tmp_path / ".specsnap" / "runs" / "tier-2-seed-7"
    assert settings.scorecards == (".specsnap/runs/tier-2-seed-7/scorecard.json",)
    assert dict(settings.agent_options) == {"model": "x", "max_turns": "3"}
    assert settings.pass_env == ("ANTHROPIC_API_KEY", "OTHER_KEY")
    assert settings.api is not None and settings.api.base_url == "https://github.example/api/v3"
    assert settings.comment_mode is CommentMode.FAILURES and settings.fail_on is FailOn.GATE
    assert settings.check_run is False
    assert settings.run_url == "https://github.example/octo/agent/actions/runs/99"


def test_every_bad_input_is_reported_at_once(tmp_path: Path) -> None:
    with pytest.raises(InputError) as caught:
        read_settings(
            env(
                tmp_path,
                step="prepare",
                seed="-3",
                comment_mode="loud",
                check_run="yes",
                pass_env="OK, 9BAD",
                agent_options="novalue",
                commit="xyz",
                stage="3",
            )
        )
    keys = {p.key.split(" ")[0] for p in caught.value.problems}
    assert keys == {
        "stage",
        "tier",
        "agent",
        "seed",
        "comment_mode",
        "check_run",
        "pass_env",
        "agent_options",
        "commit",
    }
    assert caught.value.exit_code == 2
    comment_mode = next(p for p in caught.value.problems if p.key.startswith("comment_mode"))
    assert (
        comment_mode.value == "'loud'"
        and comment_mode.expected == "one of always, failures, changes, off"
    )
    assert "INPUT_COMMENT_MODE" in comment_mode.key


def test_stage_and_ledger(tmp_path: Path) -> None:
    chosen = read_settings(env(tmp_path, step="prepare", tier="1", agent="x", stage="2"))
    assert chosen.stage == 2 and chosen.ledger is None
    by_ledger = read_settings(
        env(tmp_path, step="prepare", tier="1", agent="x", ledger="board/ledger.jsonl")
    )
    assert by_ledger.stage is None and by_ledger.ledger == tmp_path / "board" / "ledger.jsonl"


def test_an_unknown_step_names_the_known_ones(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="prepare, session, grade, publish, all, bot"):
        read_settings(env(tmp_path, step="deploy"))


def test_a_session_step_needs_its_number_and_run(tmp_path: Path) -> None:
    with pytest.raises(InputError) as caught:
        read_settings(env(tmp_path, step="session", seed=""))
    assert {p.key.split(" ")[0] for p in caught.value.problems} == {"session", "run_dir"}


def test_no_token_means_nothing_is_written(tmp_path: Path) -> None:
    settings = read_settings(env(tmp_path, step="publish", scorecards="a.json"))
    assert settings.api is None


def test_the_event_payload_is_read_once(tmp_path: Path) -> None:
    event = tmp_path / "event.json"
    event.write_text(json.dumps({"pull_request": {"number": 3}}))
    settings = read_settings(
        env(tmp_path, step="publish", scorecards="x.json") | {"GITHUB_EVENT_PATH": str(event)}
    )
    assert settings.event == {"pull_request": {"number": 3}}
    broken = tmp_path / "broken.json"
    broken.write_text("{")
    with pytest.raises(InputError, match="GITHUB_EVENT_PATH"):
        read_settings(env(tmp_path, scorecards="x.json") | {"GITHUB_EVENT_PATH": str(broken)})


def test_github_com_is_the_default_api(tmp_path: Path) -> None:
    values = env(tmp_path, step="publish", scorecards="x.json", github_token="t")
    del values["GITHUB_API_URL"]
    settings = read_settings(values)
    assert settings.api is not None and settings.api.base_url == "https://api.github.com"


def test_handoff_defaults_to_fresh_and_an_unknown_mode_is_refused(tmp_path: Path) -> None:
    assert read_settings(env(tmp_path, step="prepare", tier="1", agent="x")).handoff == "fresh"
    chosen = read_settings(env(tmp_path, step="prepare", tier="1", agent="x", handoff="Resume"))
    assert chosen.handoff == "resume"
    with pytest.raises(InputError, match="handoff"):
        read_settings(env(tmp_path, step="prepare", tier="1", agent="x", handoff="rewind"))
