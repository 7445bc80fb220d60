"""The agent's egress: in its own network namespace, the meter its only way out, under the
agent's own account. A request that goes around the meter finds no route; the meter's request
reaches the API with the real key, which the agent never held."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from specsnap.accounts.identity import current_user, python_for
from specsnap.metering.egress import Egress
from specsnap.metering.proxy import TokenMeter
from specsnap.metering.session import SessionMetering
from specsnap.scorecard.model import Tokens
from tests.support.fake_anthropic import FakeAnthropic, Turn, Usage, text

REAL_KEY = "sk-ant-api03-real-key-of-the-caller"

AGENT = r"""
import json, os, socket, sys, urllib.request
meter, direct_port = sys.argv[1], int(sys.argv[2])
key = os.environ["ANTHROPIC_API_KEY"]
body = json.dumps({"model": "m", "max_tokens": 5, "messages": [], "tools": [{"name": "t"}]})
request = urllib.request.Request(meter + "/v1/messages", data=body.encode(),
                                 headers={"x-api-key": key, "content-type": "application/json"})
with urllib.request.urlopen(request, timeout=10) as answer:
    through_meter = json.loads(answer.read())["content"][0]["text"]
try:
    socket.create_connection(("127.0.0.1", direct_port), timeout=5).close()
    direct = "connected"
except OSError as exc:
    direct = type(exc).__name__
print(json.dumps({"through_meter": through_meter, "direct": direct, "key": key,
                  "env_has_real_key": any("real-key" in v for v in os.environ.values())}))
"""


def namespaces_allowed() -> bool:
    probe = subprocess.run(["unshare", "--user", "--net", "true"], capture_output=True)
    return probe.returncode == 0


pytestmark = pytest.mark.skipif(
    not namespaces_allowed(), reason="this machine refuses new network namespaces"
)


def run_agent(argv: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    run_as = current_user()
    return subprocess.run(
        argv,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        user=None if run_as.is_self else run_as.uid,
        group=None if run_as.is_self else run_as.gid,
        extra_groups=None if run_as.is_self else [],
        start_new_session=True,
    )


def test_the_meter_is_the_agents_only_way_out(tmp_path: Path) -> None:
    run_as = current_user()
    python = python_for(run_as)
    script = tmp_path / "agent.py"
    script.write_text(AGENT)
    script.chmod(0o644)
    turn = Turn((text("through the meter"),), Usage(30, 4, 0, 0))
    with FakeAnthropic([turn], api_key=REAL_KEY) as server:
        environ = {"ANTHROPIC_API_KEY": REAL_KEY, "ANTHROPIC_BASE_URL": server.base_url}
        metering = SessionMetering.start(["anthropic"], environ, run_as.uid, python)
        route = metering.routes["anthropic"]
        env = metering.environment(
            {"PATH": "/usr/bin:/bin", "OPENAI_API_KEY": "sk-other", "X": REAL_KEY}
            | {route.key_env: route.key}
        )
        port = server.base_url.rsplit(":", 1)[1]
        argv = [python, "-I", str(script), route.base_url, port]
        done = run_agent(metering.wrap(argv), env)
        notes: list[str] = []
        usage, record = metering.finish(Tokens.unknown(), False, notes)
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout)
    assert seen["through_meter"] == "through the meter"
    assert seen["direct"] in ("ConnectionRefusedError", "OSError")  # nothing listens there
    assert seen["key"] == route.key != REAL_KEY and not seen["env_has_real_key"]
    assert set(env) == {"PATH", "ANTHROPIC_API_KEY"}
    assert record["egress_enforced"] is True and notes == []
    assert usage == Tokens(30, 4, 0, 0, "metered")
    # Not the API's public address: the record names where the counts came from.
    assert record["meter"]["upstreams"] == {"anthropic": server.base_url}
    assert [r.header("x-api-key") for r in server.requests] == [REAL_KEY]


def test_a_handover_from_another_account_is_refused(tmp_path: Path) -> None:
    meter = TokenMeter({}).start()
    egress = Egress(meter, uid=os.getuid() + 12345, python=python_for(current_user()))
    try:
        with socket.socket(socket.AF_UNIX) as connection:
            connection.connect(str(egress.path))
            connection.sendall(b"open:pretend")
            connection.shutdown(socket.SHUT_WR)
            assert connection.recv(16) == b"no"
    finally:
        egress.close()
        meter.stop(0)
    assert not egress.enforced


def test_an_agent_whose_egress_cannot_be_confined_runs_and_is_recorded(tmp_path: Path) -> None:
    """A kernel that refuses new network namespaces (as Docker's seccomp profile does), played
    by a user namespace whose limit of network namespaces is zero."""
    run_as = current_user()
    meter = TokenMeter({}).start()
    egress = Egress(meter, run_as.uid, python_for(run_as))
    refuse = 'echo 0 > /proc/sys/user/max_net_namespaces && exec "$@"'
    try:
        argv = ["unshare", "--user", "--map-root-user", "sh", "-c", refuse, "sh"]
        done = run_agent(
            [*argv, *egress.wrap(["sh", "-c", "echo started"])], {"PATH": "/usr/bin:/bin"}
        )
    finally:
        egress.close()
        meter.stop(0)
    assert done.returncode == 0 and done.stdout == "started\n", done.stderr
    assert not egress.enforced
    assert "could not be made" in egress.reason and "unshare" in egress.reason


def test_the_reason_is_kept_when_the_launcher_reports_an_open_egress() -> None:
    run_as = current_user()
    meter = TokenMeter({}).start()
    egress = Egress(meter, os.getuid(), python_for(run_as))
    try:
        with socket.socket(socket.AF_UNIX) as connection:
            connection.connect(str(egress.path))
            connection.sendall(b"open:unshare: Operation not permitted")
            connection.shutdown(socket.SHUT_WR)
            assert connection.recv(16) == b"ok"
    finally:
        egress.close()
        meter.stop(0)
    assert not egress.enforced
    assert egress.reason.endswith("unshare: Operation not permitted")


def test_the_apis_public_addresses_are_not_named_in_the_record() -> None:
    environ = {"ANTHROPIC_BASE_URL": "https://api.anthropic.com/"}  # the default, slash and all
    metering = SessionMetering.start(
        ["anthropic", "gemini"], environ, os.getuid(), sys.executable, confine=False
    )
    _usage, record = metering.finish(Tokens.unknown(), False, [], drain_s=0)
    assert record["meter"]["apis"] == ["anthropic", "gemini"]
    assert "upstreams" not in record["meter"]
