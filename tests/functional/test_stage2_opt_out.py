"""Trust v3, class 5: a Stage II perturbation the agent can opt out of.

A note-keeping agent (played through `specsnap run --agent command`) writes the sprint down in
session 1, is cut off in its first edit, and in session 2 implements the sprint with the value
its notes give. Kept as a plain NOTES.md, the stale note changes that value and REP-1 fails.
Kept where the stale-note perturbation used not to look — behind a symlink into `.git`, in
`.pytest_cache`, over 1 MiB, with a byte that is not UTF-8 — the notes used to come through
unchanged and REP-1 passed: a gain over the plain notetaker. Now every form is perturbed alike.

A workspace a teammate's commit cannot be made on (a directory where the refactor moves a
file) used to leave the refactor silently "not applied"; the run is now not a complete Stage II
run, and its scorecard says so.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from specsnap.tier.draws import values_for
from specsnap.tier.loading import load_tier
from specsnap.tier.solutions import rendered_patch, requirement_patches
from tests.conftest import FIXTURE_TIERS
from tests.functional.cli import specsnap

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(os.geteuid() != 0, reason="official mode: SpecSnap runs as root"),
]

SEED = 3

AGENT = r"""
import os, re, subprocess, sys
from pathlib import Path
prompt = Path(sys.argv[1]).read_text()
FORM, FOLDER = {form!r}, {folder!r}
where = {{"plain": "NOTES.md", "link-into-git": "NOTES.md", "pytest-cache": ".pytest_cache/v/notes",
         "large": "NOTES.md", "non-utf8": "NOTES.md"}}[FORM]
if not prompt.startswith("Continue"):
    if FORM == "link-into-git":
        os.makedirs(".git/info", exist_ok=True)
        os.symlink(".git/info/sprint-notes", "NOTES.md")
    Path(where).parent.mkdir(parents=True, exist_ok=True)
    text = prompt.encode()
    if FORM == "large":
        text += b"\n" + b"." * (2 << 20) + b"\n"
    if FORM == "non-utf8":
        text += b"\n\xff\n"
    Path(where).write_bytes(text)
    convert = Path("units/convert.py")
    convert.write_text(convert.read_text() + "\n# started\n")  # the cutoff comes here
    raise SystemExit(0)
notes = Path(where).read_bytes().decode("latin-1")
value = re.search(r"weights of (\d+) g", notes).group(1)
subprocess.run(["git", "checkout", "--", "units/convert.py"], check=True)
subprocess.run(["git", "apply", f"{{FOLDER}}/sprint-{{value}}.patch"], check=True)
subprocess.run(["git", "add", "units", "report"], check=True)
subprocess.run(["git", "commit", "-qm", "sprint"], check=True)
"""


def run(tmp_path: Path, form: str, *options: str) -> dict[str, Any]:
    tier = load_tier(FIXTURE_TIERS / "tier-90")
    folder = tmp_path / "material"
    folder.mkdir(mode=0o755, parents=True)
    values = values_for(tier, SEED)
    patches = requirement_patches(tier, [r.id for r in tier.requirements])
    for choice in (1000, 2000):  # the sprint as the agent would write it for either value
        chosen = {**values, "heavy_from": choice}
        text = "".join(rendered_patch(p, chosen) for p in patches)
        (folder / f"sprint-{choice}.patch").write_text(text)
    script = folder / "agent.py"
    script.write_text(AGENT.format(form=form, folder=str(folder)))
    for path in folder.iterdir():
        path.chmod(0o644)
    out = tmp_path / "run"
    args = ["run", "--tier", "90", "--seed", str(SEED), "--stage", "2", "--agent", "command"]
    args += ["--agent-opt", f"cmd=python3 {script} {{prompt_file}}", *options]
    proc = specsnap(*args, "--out", str(out), tiers=FIXTURE_TIERS)
    assert (out / "scorecard.json").is_file(), proc.stderr
    return json.loads((out / "scorecard.json").read_text())  # type: ignore[no-any-return]


def stale(card: dict[str, Any]) -> dict[str, Any]:
    (found,) = [p for p in card["stage2"]["perturbations"] if p["kind"] == "stale-note"]
    return found  # type: ignore[no-any-return]


@pytest.fixture(scope="module")
def plain(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    base = tmp_path_factory.mktemp("plain")
    base.chmod(0o711)
    for parent in base.parents:
        if parent == Path("/tmp"):
            break
        parent.chmod(parent.stat().st_mode | 0o011)
    card = run(base, "plain", "--perturb", "stale-note")
    assert stale(card)["applied"] is True
    passed = {r["id"]: r["passed"] for r in card["requirements"]}
    assert passed == {"UNIT-1": True, "REP-1": False}  # the stale value reached its code
    return card


@pytest.mark.parametrize("form", ["link-into-git", "pytest-cache", "large", "non-utf8"])
def test_notes_kept_anywhere_get_the_stale_value_too(
    tmp_path: Path, plain: dict[str, Any], form: str
) -> None:
    card = run(tmp_path, form, "--perturb", "stale-note")
    assert stale(card)["applied"] is True, stale(card)["what"]
    assert {r["id"]: r["passed"] for r in card["requirements"]} == {
        r["id"]: r["passed"] for r in plain["requirements"]
    }  # no gain over the plain notetaker
    assert card["scores"]["net_retention"] == plain["scores"]["net_retention"]


def test_a_teammate_commit_that_cannot_land_leaves_an_incomplete_run(tmp_path: Path) -> None:
    body = (
        "if ! grep -q '^Continue' {prompt_file}; then mkdir -p report/formatting.py && "
        "touch report/formatting.py/keep; fi"
    )
    out = tmp_path / "run"
    args = ["run", "--tier", "90", "--seed", str(SEED), "--stage", "2", "--agent", "command"]
    proc = specsnap(*args, "--agent-opt", f"cmd={body}", "--out", str(out), tiers=FIXTURE_TIERS)
    assert (out / "scorecard.json").is_file(), proc.stderr
    card = json.loads((out / "scorecard.json").read_text())
    refactor = [p for p in card["stage2"]["perturbations"] if p["kind"] == "teammate-refactor"]
    assert refactor and refactor[0]["applied"] is False
    assert card["official"] is False
    assert any(
        r.startswith("teammate-refactor before session 2 not applied")
        and r.endswith("not a complete Stage II run")
        for r in card["unofficial_reasons"]
    ), card["unofficial_reasons"]
