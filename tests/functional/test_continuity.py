"""Continuity through a whole `specsnap run`: a copy of the fixture tier (tier-90) with an
amendment in session 2 and its hidden check. An agent that implements the sprint and the
amendment but writes a docstring that still states the old rule gets `silent contradiction`,
naming the file and line; an honest agent whose docstring states the new rule gets `revised`.
Both write the same code: every primary score is the same, the signal changes none. The
scorecard shows the line, and `specsnap verify --run` rebuilds it from work.json.

Tier 4 itself runs four sessions and grades each (about three minutes a run on two cores), too
slow for the default suite: its checks are tested against its reference and pre-amendment
solutions in tests/unit/quality/test_continuity.py."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import FIXTURE_TIERS
from tests.functional.cli import specsnap

pytestmark = pytest.mark.slow

AMENDMENT = """
amendments:
  - session: 2
    amends: [REP-1]
    text: |
      Amendment A1 to REP-1: the warehouse calls weights of ${heavy_from} g and more bulk
      weights, and "heavy" confused everyone. Behaviour does not change; the code and its
      documentation say bulk from now on.
    contradicted:
      - says: "heavy weights from ${heavy_from} g"
        pattern: '(?i)\\bheavy\\b[^.]{0,60}?\\b${heavy_from}\\s*g\\b'
        unless: '(?i)\\b(?:no longer|formerly|used to|was)\\b'
        where: ["report/**/*.py", "**/*.md"]
"""

#: Session 1 is cut off at its first source edit: the agent does the sprint and the amendment
#: in session 2, whose prompt carries the amendment (and so the seed's threshold).
AGENT = """
import pathlib, re, subprocess, sys
prompt = pathlib.Path(sys.argv[1]).read_text()
if not prompt.startswith("Continue"):
    raise SystemExit(0)
heavy_from = re.search(r"weights of (\\d+) g and more", prompt).group(1)
convert = pathlib.Path("units/convert.py")
convert.write_text(convert.read_text().replace(
    '"kg": 1000.0}', '"kg": 1000.0, "lb": 453.59237, "oz": 453.59237 / 16}'))
pathlib.Path("report/lines.py").write_text(f'''\"\"\"Report lines.\"\"\"

from units import to_grams


def weight_line(name: str, value: float, unit: str) -> str:
    \"\"\"One line of a weight report.

    {WORD} weights from {heavy_from} g are shown in kg with two decimals, others in grams.
    \"\"\"
    grams = to_grams(value, unit)
    if grams >= {heavy_from}:
        return f"{{name}}: {{grams / 1000:.2f}} kg"
    return f"{{name}}: {{grams:.0f}} g"
''')
subprocess.run(["git", "add", "-A"], check=True)
subprocess.run(["git", "commit", "-q", "-m", "imperial units, bulk weights in kg"], check=True)
"""


def run(tmp_path: Path, word: str) -> tuple[dict[str, Any], dict[str, Any], str]:
    """work.json, scorecard.json and scorecard.md of a run whose docstring says `word`."""
    tiers = tmp_path / "tiers"
    shutil.copytree(FIXTURE_TIERS / "tier-90", tiers / "tier-90")
    with (tiers / "tier-90" / "tier.yaml").open("a") as tier_yaml:
        tier_yaml.write(AMENDMENT)
    script = tmp_path / "agent.py"
    script.write_text(AGENT.replace("{WORD}", word))
    out = tmp_path / "run"
    proc = specsnap(
        "run", "--tier", "90", "--agent", "command", "--agent-opt",
        f"cmd=python3 {script} {{prompt_file}}", "--out", str(out), tiers=tiers,
    )  # fmt: skip
    assert proc.returncode in (0, 1), proc.stderr
    verified = specsnap("verify", str(out / "scorecard.json"), "--run", str(out), tiers=tiers)
    assert verified.returncode == 0, verified.stdout + verified.stderr
    work = json.loads((out / "work.json").read_text())
    card = json.loads((out / "scorecard.json").read_text())
    assert card["work"]["continuity"] == work["continuity"]
    return work, card, (out / "scorecard.md").read_text()


def test_a_docstring_left_stating_the_old_rule_is_a_silent_contradiction_an_update_is_not(
    tmp_path: Path,
) -> None:
    work, card, markdown = run(tmp_path / "silent", "Heavy")
    [amendment] = work["continuity"]["amendments"]
    assert (amendment["amendment"], amendment["session"], amendment["amends"]) == (
        "A1",
        2,
        ["REP-1"],
    )
    assert amendment["status"] == "silent contradiction"
    assert [(s["file"], s["line"]) for s in amendment["statements"]] == [("report/lines.py", 9)]
    assert "silent contradiction: `report/lines.py:9`" in markdown

    honest_work, honest_card, honest_markdown = run(tmp_path / "honest", "Bulk")
    [honest] = honest_work["continuity"]["amendments"]
    assert (honest["status"], honest["statements"]) == ("revised", [])
    assert "A1 (session 2, `REP-1`) revised" in honest_markdown

    # the same code: the signal moves no score
    assert card["scores"]["raw_retention"] == honest_card["scores"]["raw_retention"] == 1.0
    assert card["scores"]["net_retention"] == honest_card["scores"]["net_retention"] == 1.0
    assert card["requirements"] == honest_card["requirements"]
