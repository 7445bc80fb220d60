"""SpecSnap's own sessions with the real Claude Code CLI (offline, scripted model server): the
cutoff fires on the CLI's first `.py` write, the continuation session finishes and commits, and
the CLI's reported usage lands in the scorecard."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import FIXTURE_TIERS, fixture_value
from tests.functional.cli import card
from tests.support.agent_cli import claude_binary
from tests.support.fake_anthropic import FakeAnthropic, Turn, Usage, bash, text, write_file

pytestmark = [pytest.mark.claude, pytest.mark.slow]

# The fixture tier draws REP-1's threshold from the seed; these runs use the default seed, 0.
HEAVY_FROM = fixture_value("heavy_from")
SOLVED_CONVERT = (
    (FIXTURE_TIERS / "tier-90" / "starter" / "units" / "convert.py")
    .read_text()
    .replace(
        'FACTORS = {"g": 1.0, "kg": 1000.0}',
        'FACTORS = {"g": 1.0, "kg": 1000.0, "lb": 453.59237, "oz": 453.59237 / 16}',
    )
)
SOLVED_LINES = '''"""Report lines."""

from units import to_grams


def weight_line(name: str, value: float, unit: str) -> str:
    """One line of a weight report: the name and the weight in grams, or kg from HEAVY g."""
    grams = to_grams(value, unit)
    if grams >= HEAVY:
        return f"{name}: {grams / 1000:.2f} kg"
    return f"{name}: {grams:.0f} g"
'''.replace("HEAVY", str(HEAVY_FROM))


def step(*args: str, server: FakeAnthropic, claude: Path) -> subprocess.CompletedProcess[str]:
    env = dict(
        os.environ,
        SPECSNAP_TIERS_DIR=str(FIXTURE_TIERS),
        ANTHROPIC_BASE_URL=server.base_url,
        ANTHROPIC_API_KEY="sk-ant-fake",
    )
    return subprocess.run(
        [sys.executable, "-m", "specsnap", *args],
        env=env,
        text=True,
        capture_output=True,
        timeout=300,
    )


def test_cutoff_fires_on_claudes_first_write_and_usage_is_scored(tmp_path: Path) -> None:
    claude = claude_binary()
    run = tmp_path / "run"
    sandbox = run / "sandbox"
    first = [
        Turn(
            (write_file(str(sandbox / "units" / "convert.py"), SOLVED_CONVERT),),
            Usage(1200, 80, 3000, 0),
        ),
        Turn((text("never sent: cut off before this"),), Usage(7, 7, 7, 7), delay=60),
    ]
    second = [
        Turn(
            (write_file(str(sandbox / "report" / "lines.py"), SOLVED_LINES),),
            Usage(900, 120, 0, 2500),
        ),
        Turn(
            (bash("git add -A && git commit -q -m 'Finish the sprint'"),), Usage(300, 30, 0, 2600)
        ),
    ]
    final = Turn((text("All requirements done and committed."),), Usage(100, 10, 0, 2700))
    with FakeAnthropic(first) as server_1, FakeAnthropic(second, final=final) as server_2:
        prepare = step(
            "prepare",
            "--tier",
            "90",
            "--agent",
            "claude-code",
            "--agent-opt",
            f"bin={claude}",
            "--out",
            str(run),
            server=server_1,
            claude=claude,
        )
        assert prepare.returncode == 0, prepare.stderr
        one = step("session", str(run), "1", server=server_1, claude=claude)
        assert one.returncode == 0, one.stderr
        two = step("session", str(run), "2", server=server_2, claude=claude)
        assert two.returncode == 0, two.stderr
        graded = step("grade", str(run), server=server_2, claude=claude)
        second_total = server_2.total_usage()
    data = card(run)
    s1, s2 = data["sessions"]
    assert s1["cutoff"]["fired"] and s1["cutoff"]["file"] == "units/convert.py", graded.stdout
    assert s1["exit"]["status"] == "cutoff"
    assert s1["tokens"] == s1["tokens_reported"] | {"source": "metered"}
    assert s1["tokens_reported"] == {
        "input": 1200,
        "output": 80,
        "cache_write": 3000,
        "cache_read": 0,
        "source": "reported",
    }
    assert s2["exit"]["status"] == "completed" and not s2["cutoff"]["armed"]
    assert s2["tokens"]["source"] == "metered" and s2["notes"] == []
    assert (s2["tokens"]["input"], s2["tokens"]["cache_read"]) == (
        second_total.input_tokens,
        second_total.cache_read_input_tokens,
    )
    assert data["scores"]["raw_retention"] == 1.0 and data["scores"]["net_retention"] == 1.0
    assert data["scores"]["effective_tokens"] is not None
