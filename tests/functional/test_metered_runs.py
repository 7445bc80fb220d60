"""Whole runs through `specsnap run --agent command` and the controls: where the session's
tokens come from (the meter, the agent's report, or nobody), and what that does to the TES and
to the scorecard's standing."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from tests.conftest import FIXTURE_TIERS
from tests.functional.cli import card, specsnap
from tests.support.fake_anthropic import FakeAnthropic, Turn, Usage, text
from tests.support.fake_model import trust_reasons

REAL_KEY = "sk-ant-api03-" + "k" * 93 + "AA"

#: An agent that talks to its model through the meter, streamed, then tries to reach the model
#: directly, then reports a usage of its own invention.
METERED_AGENT = r"""
import json, os, socket, sys, urllib.error, urllib.request
base, key = os.environ["ANTHROPIC_BASE_URL"], os.environ["ANTHROPIC_API_KEY"]
body = {"model": "m", "max_tokens": 9, "stream": True, "tools": [{"name": "t"}],
        "messages": [{"role": "user", "content": "hi"}]}
request = urllib.request.Request(base + "/v1/messages", data=json.dumps(body).encode(),
                                 headers={"x-api-key": key, "content-type": "application/json"})
with urllib.request.urlopen(request, timeout=20) as answer:
    streamed = answer.read().decode()
try:
    socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=5).close()
    direct = "reached the model directly"
except OSError:
    direct = "no route to the model"
json.dump({"input": 1, "output": 1}, open(os.environ["SPECSNAP_USAGE_FILE"], "w"))
print(direct, "message_stop" in streamed, key != sys.argv[2])
"""


def run(tmp_path: Path, name: str, *options: str, env: dict[str, str] | None = None) -> Any:
    out = tmp_path / name
    saved = dict(os.environ)
    os.environ.update(env or {})
    try:
        done = specsnap(
            "run", "--tier", "90", "--agent", name.split("-")[0], "--seed", "1",
            *(arg for option in options for arg in ("--agent-opt", option)),
            "--out", str(out), tiers=FIXTURE_TIERS,
        )  # fmt: skip
    finally:
        os.environ.clear()
        os.environ.update(saved)
    assert done.returncode in (0, 1), done.stderr
    return card(out), out


def test_a_command_agents_model_api_is_metered_and_its_own_report_only_noted(
    tmp_path: Path,
) -> None:
    script = tmp_path / "agent.py"
    script.write_text(METERED_AGENT)
    script.chmod(0o644)
    turns = [Turn((text("hello"),), Usage(120, 30, 40, 500)), Turn((text("again"),), Usage(90, 20))]
    with FakeAnthropic(turns, api_key=REAL_KEY) as server:
        port = server.base_url.rsplit(":", 1)[1]
        command = f"python3 {script} {port} {REAL_KEY}"
        data, out = run(
            tmp_path, "command-metered", f"cmd={command}", "apis=anthropic",
            env={"ANTHROPIC_BASE_URL": server.base_url, "ANTHROPIC_API_KEY": REAL_KEY},
        )  # fmt: skip
    s1, s2 = data["sessions"]
    assert (s1["tokens"], s2["tokens"]) == (
        {"input": 120, "output": 30, "cache_write": 40, "cache_read": 500, "source": "metered"},
        {"input": 90, "output": 20, "cache_write": 0, "cache_read": 0, "source": "metered"},
    )
    stdout = (out / "sessions" / "1" / "stdout.log").read_text()
    assert stdout == "no route to the model True True\n"  # egress confined; a placeholder key
    assert s1["egress_enforced"] and s1["meter"]["apis"] == ["anthropic"]
    assert s1["web_tools"] == "not-disableable"
    assert "the agent reported other token counts than the meter measured" in s1["notes"]
    assert [r.header("x-api-key") for r in server.requests] == [REAL_KEY, REAL_KEY]
    assert data["scores"]["tes"] is not None
    assert not trust_reasons(data)
    # The counts are the scripted server's, not the API's: SpecSnap says it cannot check them.
    assert s1["meter"]["upstreams"] == {"anthropic": server.base_url}
    forwarded = f"the meter forwarded anthropic requests to {server.base_url}, not the API's"
    assert [r.split(": ", 1)[0] for r in data["unofficial_reasons"] if forwarded in r] == [
        "session 1",
        "session 2",
    ]
    assert data["official"] is False


def test_reported_tokens_give_an_unofficial_tes_and_unrecognised_ones_none(
    tmp_path: Path,
) -> None:
    report = 'echo \'{"input_tokens": 700, "output_tokens": 50}\' > $SPECSNAP_USAGE_FILE'
    reported, _ = run(tmp_path, "command-reported", f"cmd={report}")
    assert reported["sessions"][0]["tokens"]["source"] == "reported"
    assert reported["scores"]["tes"] is not None and reported["official"] is False
    assert (
        "session 1: the agent reported its own tokens; none metered"
        in (reported["unofficial_reasons"])
    )
    garbage = "echo '{\"tokens\": 5}' > $SPECSNAP_USAGE_FILE"
    unknown, _ = run(tmp_path, "command-unknown", f"cmd={garbage}")
    assert unknown["sessions"][0]["tokens"]["source"] == "unknown"
    assert unknown["scores"]["tes"] is None
    assert not [r for r in trust_reasons(unknown) if "token" in r]


def test_the_model_free_controls_are_metered_at_zero(tmp_path: Path) -> None:
    data, _ = run(tmp_path, "notetaker")
    for session in data["sessions"]:
        assert session["tokens"] == {
            "input": 0, "output": 0, "cache_write": 0, "cache_read": 0, "source": "metered",
        }  # fmt: skip
        assert session["meter"]["apis"] == [] and session["egress_enforced"] is True
    assert data["scores"]["tes"] == data["scores"]["net_retention"] == 1.0
    assert not [r for r in data["unofficial_reasons"] if "token" in r or "egress" in r]
    assert all("upstreams" not in session["meter"] for session in data["sessions"])
    assert json.dumps(data).count("sk-ant") == 0
