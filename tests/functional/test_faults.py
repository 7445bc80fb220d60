"""Agents that misbehave still yield a scorecard that says what happened (command adapter)."""

from __future__ import annotations

import json
import os
import subprocess
import time
from pathlib import Path

import pytest

from specsnap.accounts.identity import account_named
from specsnap.accounts.pools import DEFAULT_LEASE_DIR
from specsnap.sessions.processes import account_pids
from tests.conftest import FIXTURE_TIERS
from tests.functional.cli import card, specsnap


def run_command(tmp_path: Path, cmd: str, *extra: str) -> dict:  # type: ignore[type-arg]
    out = tmp_path / "run"
    proc = specsnap(
        "run",
        "--tier",
        "90",
        "--agent",
        "command",
        "--agent-opt",
        f"cmd={cmd}",
        "--out",
        str(out),
        *extra,
        tiers=FIXTURE_TIERS,
    )
    assert proc.returncode in (0, 1), proc.stderr
    return card(out)


def test_crashing_agent(tmp_path: Path) -> None:
    data = run_command(tmp_path, "echo boom >&2; exit 3")
    assert [s["exit"]["status"] for s in data["sessions"]] == ["crashed", "crashed"]
    assert data["sessions"][0]["exit"]["code"] == 3
    assert (tmp_path / "run" / "sessions" / "1" / "stderr.log").read_text() == "boom\n"
    assert data["scores"]["raw_retention"] == 0.0
    assert data["sessions"][0]["tokens"]["source"] == "unknown" and data["scores"]["tes"] is None


def test_hanging_agent_is_stopped_at_its_time_limit(tmp_path: Path) -> None:
    started = time.monotonic()
    data = run_command(tmp_path, "sleep 3121", "--time-limit", "2")
    assert time.monotonic() - started < 30
    assert [s["exit"]["status"] for s in data["sessions"]] == ["timeout", "timeout"]
    assert data["official"] is False
    assert any("time limit 2s" in r for r in data["unofficial_reasons"])
    assert _survivors("sleep 3121") == []


def test_background_processes_do_not_survive_the_session(tmp_path: Path) -> None:
    data = run_command(tmp_path, "(setsid sleep 3122 &) ; (sleep 3123 &) ; exit 0")
    assert _survivors("sleep 312[23]") == []
    assert any("background process" in n for n in data["sessions"][0]["notes"])


def test_agent_that_deletes_git(tmp_path: Path) -> None:
    data = run_command(tmp_path, "rm -rf .git")
    assert data["scores"]["net_retention"] == 0.0 and data["receipt"]["head_commit"] is None
    assert any(".git" in n for n in data["sessions"][0]["notes"])
    assert "no commit to grade" in data["gate"]["baseline_failures"][0]["outcome"]


def test_flooding_output_is_capped(tmp_path: Path) -> None:
    data = run_command(tmp_path, "head -c 40000000 /dev/zero")
    assert any("exceeded 32 MiB" in n for n in data["sessions"][0]["notes"])
    assert (tmp_path / "run" / "sessions" / "1" / "stdout.log").stat().st_size == 32 * 1024 * 1024


def test_usage_file_tokens_are_reported(tmp_path: Path) -> None:
    cmd = (
        'printf \'{"input_tokens": 1000, "output_tokens": 200, '
        '"cache_read_input_tokens": 5000}\' > "$SPECSNAP_USAGE_FILE"'
    )
    data = run_command(tmp_path, cmd)
    assert data["sessions"][0]["tokens"] == {
        "input": 1000,
        "output": 200,
        "cache_write": 0,
        "cache_read": 5000,
        "source": "reported",
    }
    assert data["scores"]["effective_tokens"] == 2 * (1000 + 200 + 0.1 * 5000)


@pytest.mark.parametrize("bypass", ["--no-verify", "-c core.hooksPath=/dev/null"])
def test_commit_bypassing_the_hook_is_a_protocol_breach(tmp_path: Path, bypass: str) -> None:
    cmd = (
        f"git add -A && git {bypass if bypass.startswith('-c') else ''} commit -q --allow-empty "
        f"{bypass if bypass == '--no-verify' else ''} -m sneaky"
    )
    data = run_command(tmp_path, cmd)
    first = data["sessions"][0]
    assert first["cutoff"]["fired"] and first["cutoff"]["reason"] == "commit"
    assert any("landed while armed" in b["what"] for b in first["breaches"])
    assert data["gate"]["protocol_ok"] is False and data["scores"]["net_retention"] == 0.0


def test_commit_through_the_hook_is_refused_and_cuts_off(tmp_path: Path) -> None:
    once = "[ -f .tried ] || { touch .tried; git commit -q --allow-empty -m try; touch .after; }"
    data = run_command(tmp_path, once)
    first = data["sessions"][0]
    assert first["cutoff"]["reason"] == "commit-attempt"
    assert first["breaches"] == []
    assert (tmp_path / "run" / "sandbox" / ".tried").exists()
    assert not (tmp_path / "run" / "sandbox" / ".after").exists()


def _survivors(pattern: str) -> list[str]:
    proc = subprocess.run(["pgrep", "-f", pattern], capture_output=True, text=True)
    return proc.stdout.split()


needs_root = pytest.mark.skipif(os.geteuid() != 0, reason="agent accounts need root")


@needs_root
def test_the_agent_can_read_no_record_of_its_run(tmp_path: Path) -> None:
    guesses = [
        "../run.json",
        "../sessions/1/session.json",
        "../sessions/1/cutoff.json",
        "../sessions/1/stdout.log",
        "../sessions/1/home/prompt.md",  # session 1's HOME, once retired
    ]
    probe = f"for f in {' '.join(guesses)}; do cat $f >/dev/null 2>&1 && echo READ $f; done; "
    probe += "ls .. >/dev/null 2>&1 && echo LISTED ..; ls ../homes >/dev/null 2>&1 && echo LISTED"
    run_command(tmp_path, probe)
    for index in (1, 2):
        assert (tmp_path / "run" / "sessions" / str(index) / "stdout.log").read_text() == ""
    assert (tmp_path / "run" / "run.json").stat().st_mode & 0o777 == 0o600


@needs_root
def test_each_run_has_its_own_account_taken_back_between_sessions(tmp_path: Path) -> None:
    cmd = "echo work > note-$(id -un).md; git add -A; git commit -qm work; sleep 300 &"
    run_command(tmp_path, cmd)
    run = json.loads((tmp_path / "run" / "run.json").read_text())
    account = account_named(run["agent_account"])
    assert account is not None and account.name != "specsnap"
    sessions = [
        json.loads((tmp_path / "run" / "sessions" / f"{i}" / "session.json").read_text())
        for i in (1, 2)
    ]
    assert {s["containment"] for s in sessions} == {"account"}
    assert {s["account"] for s in sessions} == {account.name}
    assert (tmp_path / "run" / "sandbox" / f"note-{account.name}.md").exists()
    owners = {p.lstat().st_uid for p in (tmp_path / "run" / "sandbox").rglob("*")}
    assert owners == {0}  # taken back: nothing of the sandbox is the agent's between sessions
    assert account_pids(account.uid) == set()
    leases = Path(os.environ.get("SPECSNAP_LEASE_DIR") or DEFAULT_LEASE_DIR)
    assert not (leases / f"{account.name}.lease").exists()  # graded: the account is free again
