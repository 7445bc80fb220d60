"""Agents that try to get tokens past SpecSnap's meter, in whole `specsnap run --agent command`
runs against scripted model servers that accept only the caller's real key.

Each attack must gain nothing: the request is refused and recorded (it never reaches the
model), or the tokens it cost are `unknown`, the TES null and the scorecard unofficial. The
honest requests beside it are still metered exactly.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import FIXTURE_TIERS
from tests.functional.cli import card, specsnap
from tests.support.fake_anthropic import FakeAnthropic, Turn, Usage, text
from tests.support.fake_gemini import FakeGemini
from tests.support.fake_model import ScriptedServer, trust_reasons
from tests.support.fake_openai import FakeOpenAI

pytestmark = pytest.mark.slow

KEYS = {
    "ANTHROPIC_API_KEY": "sk-ant-api03-" + "k" * 93 + "AA",
    "OPENAI_API_KEY": "sk-proj-" + "k" * 64,
    "GEMINI_API_KEY": "AIza" + "k" * 35,
}

#: An agent that makes the requests of a plan (a JSON file) through the meter, in order, and
#: prints each one's name and status. `{key}` in a target is the session's placeholder key.
#: A step with `"leave": true` is sent from a thread, and the agent exits 1 s later, the
#: request still under way.
AGENT = r"""
import gzip, json, os, sys, threading, time, urllib.error, urllib.request
BASES = {"anthropic": "ANTHROPIC_BASE_URL", "openai": "OPENAI_BASE_URL",
         "gemini": "GOOGLE_GEMINI_BASE_URL"}
KEYS = {"anthropic": ("ANTHROPIC_API_KEY", "x-api-key"),
        "openai": ("OPENAI_API_KEY", "authorization"),
        "gemini": ("GEMINI_API_KEY", "x-goog-api-key")}

def send(step):
    variable, header = KEYS[step["api"]]
    key = os.environ[variable]
    headers = {"content-type": "application/json", **step.get("headers", {})}
    if not step.get("key_in_url"):
        headers[header] = "Bearer " + key if header == "authorization" else key
    data = json.dumps(step["body"]).encode()
    if step.get("gzip"):
        data, headers["content-encoding"] = gzip.compress(data), "gzip"
    url = os.environ[BASES[step["api"]]] + step["target"].replace("{key}", key)
    request = urllib.request.Request(url, data=data, headers=headers, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=60) as answer:
            answer.read()
            status = answer.status
    except urllib.error.HTTPError as refused:
        status = refused.code
    print(step["name"], status, flush=True)

for step in json.load(open(sys.argv[1])):
    if step.get("leave"):
        threading.Thread(target=send, args=(step,), daemon=True).start()
        time.sleep(1)
        os._exit(0)
    send(step)
"""

MESSAGE = {"model": "m", "max_tokens": 9, "messages": [{"role": "user", "content": "hi"}]}
TOOLS = {**MESSAGE, "tools": [{"name": "t"}]}  # a conversation turn, scripted
GEMINI = {"contents": [{"role": "user", "parts": [{"text": "hi"}]}], "tools": [{}]}
GENERATE = "/v1beta/models/gemini-fake-1:generateContent"


def run(tmp_path: Path, plan: list[dict[str, Any]], apis: str, servers: dict[str, str]) -> Any:
    """A whole run of the command agent with `plan` in both sessions; its scorecard and dir."""
    script, plan_file = tmp_path / "agent.py", tmp_path / "plan.json"
    script.write_text(AGENT)
    plan_file.write_text(json.dumps(plan))
    for made in (script, plan_file):
        made.chmod(0o644)
    out = tmp_path / "run"
    saved = dict(os.environ)
    os.environ.update({**KEYS, **servers})
    try:
        done = specsnap(
            "run", "--tier", "90", "--agent", "command", "--seed", "1",
            "--agent-opt", f"cmd=python3 {script} {plan_file}", "--agent-opt", f"apis={apis}",
            "--out", str(out), tiers=FIXTURE_TIERS,
        )  # fmt: skip
    finally:
        os.environ.clear()
        os.environ.update(saved)
    assert done.returncode in (0, 1), done.stderr
    return card(out), out


def statuses(out: Path, session: int) -> list[str]:
    return (out / "sessions" / str(session) / "stdout.log").read_text().splitlines()


def total(*servers: ScriptedServer) -> dict[str, int]:
    usage = sum((s.total_usage() for s in servers), Usage())
    names = ("input", "output", "cache_write", "cache_read")
    return dict(zip(names, usage.counts(), strict=True))


def summed(sessions: list[dict[str, Any]]) -> dict[str, int]:
    names = ("input", "output", "cache_write", "cache_read")
    return {name: sum(s["tokens"][name] for s in sessions) for name in names}


REFUSED = [
    {"name": "batches", "api": "anthropic", "target": "/v1/messages/batches",
     "body": {"requests": [{"custom_id": "a", "params": TOOLS}]}},
    {"name": "files", "api": "anthropic", "target": "/v1/files", "body": {}},
    {"name": "legacy-complete", "api": "anthropic", "target": "/v1/complete",
     "body": {"model": "m", "prompt": "\n\nHuman: hi\n\nAssistant:", "max_tokens_to_sample": 9}},
    {"name": "gzip-body", "api": "anthropic", "target": "/v1/messages", "body": TOOLS,
     "gzip": True},
    {"name": "legacy-completions", "api": "openai", "target": "/completions",
     "body": {"model": "m", "prompt": "hi"}},
    {"name": "field-mask-query", "api": "gemini", "target": GENERATE + "?$fields=candidates",
     "body": GEMINI},
    {"name": "field-mask-header", "api": "gemini", "target": GENERATE, "body": GEMINI,
     "headers": {"X-Goog-FieldMask": "candidates"}},
]  # fmt: skip
HONEST = [
    {"name": "messages", "api": "anthropic", "target": "/v1/messages?beta=true",
     "body": {**TOOLS, "stream": True}},
    {"name": "gemini-key-in-url", "api": "gemini", "key_in_url": True,
     "target": "/v1beta/models/gemini-fake-1:streamGenerateContent?alt=sse&key={key}",
     "body": GEMINI},
]  # fmt: skip


def test_requests_the_meter_cannot_count_are_refused_recorded_and_never_reach_the_model(
    tmp_path: Path,
) -> None:
    anthropic = FakeAnthropic(
        [], final=Turn((text("hi"),), Usage(120, 30, 40, 500)), api_key=KEYS["ANTHROPIC_API_KEY"]
    )
    gemini = FakeGemini([], api_key=KEYS["GEMINI_API_KEY"])
    openai = FakeOpenAI([], api_key=KEYS["OPENAI_API_KEY"])
    with anthropic, gemini, openai:
        data, out = run(
            tmp_path, [*REFUSED, *HONEST], "anthropic,openai,gemini",
            {"ANTHROPIC_BASE_URL": anthropic.base_url, "OPENAI_BASE_URL": openai.base_url + "/v1",
             "GOOGLE_GEMINI_BASE_URL": gemini.base_url},
        )  # fmt: skip
    expected = [f"{step['name']} 403" for step in REFUSED] + [f"{s['name']} 200" for s in HONEST]
    sessions = data["sessions"]
    for session in sessions:
        assert statuses(out, session["index"]) == expected
        assert session["meter"]["unmetered_requests"] == len(REFUSED)
        assert session["meter"]["unreadable_answers"] == 0
        assert any("/anthropic/v1/messages/batches" in note for note in session["notes"])
        assert session["tokens"]["source"] == "metered"
    # Only the honest requests reached a model; their tokens are all the run counted.
    assert [r.path for r in openai.requests] == []
    assert {r.path.split("?")[0] for r in anthropic.requests} == {"/v1/messages"}
    assert all(r.turn is not None for r in anthropic.requests + gemini.requests)
    assert summed(sessions) == total(anthropic, gemini)
    # The key the agent put in the URL went upstream in a header, never in the URL.
    assert [r.path for r in gemini.requests] == [HONEST[1]["target"].split("&")[0]] * 2
    assert {r.header("x-goog-api-key") for r in gemini.requests} == {KEYS["GEMINI_API_KEY"]}
    assert not anthropic.rejected and not gemini.rejected
    assert data["scores"]["tes"] is not None
    assert not trust_reasons(data)


def test_an_answer_whose_usage_the_meter_cannot_read_makes_the_tokens_unknown(
    tmp_path: Path,
) -> None:
    # A background response is answered at once, queued, its usage null: the model works on it
    # (and it is billed) later, where the meter never sees it.
    background = {"model": "m", "input": "hi", "tools": [{"type": "function"}], "background": True}
    plan = [
        {"name": "chat", "api": "openai", "target": "/chat/completions",
         "body": {"model": "m", "messages": [{"role": "user", "content": "hi"}], "tools": [{}]}},
        {"name": "background", "api": "openai", "target": "/responses", "body": background},
    ]  # fmt: skip
    with FakeOpenAI([], api_key=KEYS["OPENAI_API_KEY"]) as openai:
        data, out = run(tmp_path, plan, "openai", {"OPENAI_BASE_URL": openai.base_url + "/v1"})
    assert openai.turns_served == 4 and not openai.rejected  # both reached the model, twice
    for session in data["sessions"]:
        assert statuses(out, session["index"]) == ["chat 200", "background 200"]
        assert session["meter"]["unreadable_answers"] == 1 and session["meter"]["answers"] == 1
        assert session["tokens"]["source"] == "unknown"
    assert data["scores"]["tes"] is None and data["official"] is False
    assert "session 1: the meter could not read the usage of 1 model answer(s), so its tokens " \
        "are unknown" in data["unofficial_reasons"]  # fmt: skip


def test_a_request_still_under_way_when_the_agent_is_gone_is_waited_for_and_counted(
    tmp_path: Path,
) -> None:
    slow = Turn((text("slowly"),), Usage(700, 70), delay=4.0)
    plan = [{"name": "slow", "api": "anthropic", "target": "/v1/messages", "body": TOOLS,
             "leave": True}]  # fmt: skip
    with FakeAnthropic([slow, slow], api_key=KEYS["ANTHROPIC_API_KEY"]) as anthropic:
        data, out = run(tmp_path, plan, "anthropic", {"ANTHROPIC_BASE_URL": anthropic.base_url})
    assert anthropic.turns_served == 2
    for session in data["sessions"]:
        assert statuses(out, session["index"]) == []  # the agent left before the answer
        assert session["tokens"] == {
            "input": 700, "output": 70, "cache_write": 0, "cache_read": 0, "source": "metered",
        }  # fmt: skip
        assert session["meter"]["answers"] == 1
    assert data["scores"]["tes"] is not None
