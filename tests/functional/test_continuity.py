"""Continuity through a whole `specsnap run` on tier 4 (four sessions, amendments in sessions 2
and 3). Both scripted agents do nothing until session 4 (sessions 1 to 3 are cut off at their
first source edit), then commit the reference solution, which honours both amendments. The
silent agent keeps the docstring CLIN-8 asked for before amendment A1 moved reminders to the
24-hour clock: A1 is a `silent contradiction` naming that file and line, A2 stays `revised`.
The honest agent's docstrings state the new rules: both `revised`. The code is the same, and so
is every primary score: the signal changes none. The scorecard shows the line, and
`specsnap verify --run` rebuilds it from work.json."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from specsnap.tier.draws import values_for
from specsnap.tier.loading import load_tier
from specsnap.tier.solutions import rendered_patch, requirement_patches
from tests.conftest import FIXTURE_TIERS
from tests.functional.cli import specsnap

pytestmark = pytest.mark.slow

SEED = 1
NEW_DOCSTRING = '"""24-hour ``HH:MM`` with a leading zero, in every language."""'
OLD_DOCSTRING = '"""English: 12-hour clock (``9:05 AM``, ``12:00 PM``); Spanish: ``HH:MM``."""'

#: Session 4 is the one without an amendment in its prompt (and the one not cut off).
AGENT = """
import pathlib, subprocess, sys
prompt = pathlib.Path(sys.argv[1]).read_text()
if not prompt.startswith("Continue") or "amendment" in prompt:
    raise SystemExit(0)
subprocess.run(["git", "apply", sys.argv[2]], check=True)
templates = pathlib.Path("reminders/templates.py")
text = templates.read_text()
assert {new!r} in text
templates.write_text(text.replace({new!r}, {docstring!r}))
subprocess.run(["git", "add", "-A"], check=True)
subprocess.run(["git", "commit", "-q", "-m", "the sprint, as amended"], check=True)
"""


def run(tmp_path: Path, docstring: str) -> tuple[dict[str, Any], dict[str, Any], str]:
    """work.json, scorecard.json and scorecard.md of a tier-4 run whose agent commits the
    reference solution with `docstring` for the reminder times."""
    tmp_path.mkdir()
    tier = load_tier("tier-4")
    values = values_for(tier, SEED)
    patches = requirement_patches(tier, [r.id for r in tier.requirements])
    reference = tmp_path / "reference.patch"
    reference.write_text("".join(rendered_patch(p, values) for p in patches))
    script = tmp_path / "agent.py"
    script.write_text(AGENT.format(new=NEW_DOCSTRING, docstring=docstring))
    out = tmp_path / "run"
    proc = specsnap(
        "run", "--tier", "4", "--seed", str(SEED), "--agent", "command", "--agent-opt",
        f"cmd=python3 {script} {{prompt_file}} {reference}", "--out", str(out),
    )  # fmt: skip
    assert proc.returncode in (0, 1), proc.stdout + proc.stderr
    verified = specsnap("verify", str(out / "scorecard.json"), "--run", str(out))
    assert verified.returncode == 0, verified.stdout + verified.stderr
    work = json.loads((out / "work.json").read_text())
    card = json.loads((out / "scorecard.json").read_text())
    assert card["work"]["continuity"] == work["continuity"]
    return work, card, (out / "scorecard.md").read_text()


def test_a_docstring_left_stating_the_old_rule_is_a_silent_contradiction_an_update_is_not(
    tmp_path: Path,
) -> None:
    work, card, markdown = run(tmp_path / "silent", OLD_DOCSTRING)
    first, second = work["continuity"]["amendments"]
    assert (first["amendment"], first["session"], first["amends"]) == (
        "A1",
        2,
        ["CLIN-7", "CLIN-8"],
    )
    assert first["status"] == "silent contradiction"
    [statement] = first["statements"]
    template = (
        Path(__file__).parents[2] / "tiers" / "tier-4" / "solution" / "CLIN-8.patch"
    ).read_text()
    assert statement["says"] == "reminder times on the 12-hour clock"
    assert statement["file"] == "reminders/templates.py"
    assert statement["text"] == OLD_DOCSTRING
    assert statement["line"] == _line_of(template, NEW_DOCSTRING)
    assert (second["amendment"], second["status"], second["statements"]) == ("A2", "revised", [])
    shown = f"`reminders/templates.py:{statement['line']}` (reminder times on the 12-hour clock)"
    assert f"A1 (session 2, `CLIN-7`, `CLIN-8`) silent contradiction: {shown}" in markdown

    honest_work, honest_card, honest_markdown = run(tmp_path / "honest", NEW_DOCSTRING)
    statuses = [a["status"] for a in honest_work["continuity"]["amendments"]]
    assert statuses == ["revised", "revised"]
    assert "A2 (session 3, `CLIN-6`) revised" in honest_markdown

    # the same code: the signal moves no score
    assert card["scores"]["raw_retention"] == honest_card["scores"]["raw_retention"] == 1.0
    assert card["scores"]["net_retention"] == honest_card["scores"]["net_retention"] == 1.0
    assert card["requirements"] == honest_card["requirements"]


def _line_of(patch: str, text: str) -> int:
    """The line of `text` in the file a one-file patch (new file side) writes."""
    line = 0
    for row in patch.splitlines():
        if row.startswith("@@"):
            line = int(row.split("+")[1].split(",")[0].split(" ")[0]) - 1
        elif row.startswith(("+", " ")) and not row.startswith("+++"):
            line += 1
            if text in row:
                return line
    raise AssertionError(f"{text} not in the patch")


AMENDED_FIXTURE = """
amendments:
  - session: 2
    amends: [REP-1]
    text: "Amendment A1 to REP-1: lines of ${heavy_from} g and more are bulk lines."
    contradicted:
      - says: "every line in grams"
        pattern: '(?i)\\bweight in grams\\b'
        where: ["report/**/*.py"]
      - says: "heavy lines"
        pattern: '(?i)\\bheavy\\b[^.]{0,60}?\\b${heavy_from}\\s*g\\b'
        where: ["report/**/*.py", "**/*.md"]
"""


def test_validate_says_when_a_tier_s_reference_still_states_an_amended_rule(
    tmp_path: Path,
) -> None:
    """The fixture tier's reference keeps the docstring "the weight in grams": a check of that
    wording would flag an honest revision, and `specsnap tiers validate` says so for each draw,
    at the file and line; the check the reference does not trip passes unnoticed."""
    tiers = tmp_path / "tiers"
    shutil.copytree(FIXTURE_TIERS / "tier-90", tiers / "tier-90")
    with (tiers / "tier-90" / "tier.yaml").open("a") as tier_yaml:
        tier_yaml.write(AMENDED_FIXTURE)
    proc = specsnap("tiers", "validate", "tier-90", "--seeds", "2", tiers=tiers)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    failed = [line.strip() for line in proc.stdout.splitlines() if "no rule an amendment" in line]
    stated = "(found A1 report/lines.py:7 (every line in grams))"
    assert failed and set(failed) == {
        f"FAIL reference: no rule an amendment replaced is still stated {stated}"
    }
