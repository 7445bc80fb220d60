"""Stage II end to end on the fixture tier: real sessions, real git, the real `tickets` command.

The controls show what Stage II measures: the notetaker trusts its notes and falls below PASS
under a stale note; the tracker control checks them against the ticket tracker and recovers,
and its consultations are counted. A root-cause fix of the planted regression passes; a fix
that special-cases the failing input does not.
"""

from __future__ import annotations

import json
import shutil
import stat
from pathlib import Path
from typing import Any

import yaml

from specsnap.rundir import RunSpec
from specsnap.tier.draws import values_for
from specsnap.tier.loading import load_tier
from specsnap.tier.solutions import rendered_patch, requirement_patches
from tests.conftest import FIXTURE_TIERS
from tests.functional.cli import card, specsnap, without_timings


def run(out: Path, agent: str, *options: str, seed: int = 3) -> tuple[int, dict[str, Any]]:
    args = ["run", "--tier", "90", "--seed", str(seed), "--stage", "2", "--agent", agent]
    proc = specsnap(*args, *options, "--out", str(out), tiers=FIXTURE_TIERS)
    assert (out / "scorecard.json").is_file(), proc.stderr
    return proc.returncode, card(out)


def tracked_read(run_dir: Path) -> list[str]:
    """The tickets the tracker told the agent of in session 2 (the session record's log)."""
    record = json.loads((run_dir / "sessions" / "2" / "session.json").read_text())
    return list(record["tracker"]["tickets_read"])


def only(document: dict[str, Any], kind: str) -> dict[str, Any]:
    (found,) = [p for p in document["stage2"]["perturbations"] if p["kind"] == kind]
    return found


def test_a_stale_note_drops_the_notetaker_below_pass_and_the_tracker_recovers(
    tmp_path: Path,
) -> None:
    code, noted = run(tmp_path / "notetaker", "notetaker", "--perturb", "stale-note")
    assert code == 1
    assert noted["stage"] == noted["receipt"]["stage"] == 2
    assert noted["scores"]["net_retention"] == 0.5 < noted["scores"]["pass_threshold"]
    stale = only(noted, "stale-note")
    right = str(values_for(load_tier(FIXTURE_TIERS / "tier-90"), 3)["heavy_from"])
    (change,) = stale["changes"]
    assert (stale["applied"], stale["requirement"], change["path"]) == (True, "REP-1", "NOTES.md")
    assert change["before"] == right and change["after"] != right
    assert (stale["detected"], stale["repaired"]) == (False, False)
    assert {r["id"]: r["passed"] for r in noted["requirements"]} == {"UNIT-1": True, "REP-1": False}
    assert noted["stage2"]["channel"] == "retained without recovery"
    assert [s["tracker"]["consultations"] for s in noted["sessions"]] == [0, 0]
    assert any("Stage II is locked" in r for r in noted["unofficial_reasons"])
    assert any("only some perturbations" in r for r in noted["unofficial_reasons"])
    records = tmp_path / "notetaker" / "perturbations"
    assert stat.S_IMODE(records.stat().st_mode) == 0o700
    (recorded,) = json.loads((records / "2.json").read_text())
    assert (recorded["param"], recorded["changes"][0]["count"]) == ("heavy_from", 1)

    code, tracked = run(tmp_path / "tracker", "tracker", "--perturb", "stale-note")
    assert tracked["scores"]["net_retention"] == 1.0
    # It read every ticket in session 2, then wrote code: all it kept came from the tracker.
    assert code == 1 and tracked["scores"]["retained_without_recovery"] == 0.0
    assert {r["retention"] for r in tracked["requirements"]} == {"recovered"}
    assert sorted(tracked_read(tmp_path / "tracker")) == ["REP-1", "UNIT-1"]
    stale = only(tracked, "stale-note")
    assert (stale["detected"], stale["repaired"]) == (True, True)
    use = tracked["sessions"][1]["tracker"]
    assert use["consultations"] == 3 == tracked["stage2"]["consultations"]
    assert [r["request"] for r in use["requests"]] == ["list", "show UNIT-1", "show REP-1"]
    assert use["chars_served"] == sum(r["chars"] for r in use["requests"]) > 0
    assert tracked["stage2"]["channel"] == "recovered"
    markdown = (tmp_path / "tracker" / "scorecard.md").read_text()
    assert "Stage II: recovered (3 tracker consultations after session 1)" in markdown
    assert "| 2 | recovered (tracker: 3 consultations, " in markdown


def test_every_perturbation_between_the_sessions(tmp_path: Path) -> None:
    code, noted = run(tmp_path / "notetaker", "notetaker")
    assert code == 1 and noted["scores"]["net_retention"] == 0.0
    assert [p["kind"] for p in noted["stage2"]["perturbations"]] == [
        "lost-work",
        "teammate-refactor",
        "planted-regression",
        "stale-note",
    ]
    regression = only(noted, "planted-regression")
    assert (regression["detected"], regression["repaired"]) == (False, False)
    failing = {f["test"] for f in noted["gate"]["baseline_failures"]}
    assert "visible/tests/test_visible.py::test_weight_line" in failing
    assert "test_stage2.py::test_fractional_weights_convert_exactly" in failing

    code, tracked = run(tmp_path / "tracker", "tracker")
    assert code == 1 and tracked["scores"]["net_retention"] == 1.0
    assert tracked["scores"]["retained_without_recovery"] == 0.0
    stage2 = tracked["stage2"]
    assert (stage2["faults"], stage2["detected"], stage2["repaired"]) == (3, 3, 3)
    refactor = only(tracked, "teammate-refactor")
    assert (refactor["detected"], refactor["repaired"]) == (None, None)
    assert refactor["commit"] == only(noted, "teammate-refactor")["commit"]  # seeded, dated
    sandbox = tmp_path / "tracker" / "sandbox"
    assert (sandbox / "report" / "formatting.py").is_file()
    assert not (sandbox / "report" / "lines.py").exists()
    lost = only(tracked, "lost-work")
    assert lost["changes"][0]["path"] == tracked["sessions"][0]["cutoff"]["file"]

    proc = specsnap(
        "verify",
        str(tmp_path / "tracker" / "scorecard.json"),
        "--run",
        str(tmp_path / "tracker"),
        tiers=FIXTURE_TIERS,
    )
    assert proc.returncode == 0, proc.stdout
    assert "ok   receipt.stage: 2" in proc.stdout and "identical but for timings" in proc.stdout

    code, again = run(tmp_path / "again", "tracker")
    assert without_timings(again) == without_timings(tracked)


def fix_script(tmp_path: Path, fix: str) -> str:
    """A command agent that, in session 2, writes the reference and the given fix, and commits."""
    tier = load_tier(FIXTURE_TIERS / "tier-90")
    values = values_for(tier, 3)
    folder = tmp_path / "fixes"
    folder.mkdir(mode=0o755, parents=True)
    patches = requirement_patches(tier, [r.id for r in tier.requirements])
    reference = "".join(rendered_patch(p, values) for p in patches)
    (folder / "reference.patch").write_text(reference)
    assert tier.stage2 is not None
    chosen = (
        tier.stage2.regression.root_cause if fix == "root" else tier.stage2.regression.special_case
    )
    shutil.copyfile(chosen, folder / "fix.patch")
    for path in folder.iterdir():
        path.chmod(0o644)
    # `git status` refreshes the index first, as it would after any checkout by another user.
    steps = f"git apply --3way {folder}/reference.patch && git apply {folder}/fix.patch"
    if fix == "revert":  # the teammate's commit is HEAD: session 1 was cut off before committing
        steps = f"git revert --no-edit HEAD && git apply --3way {folder}/reference.patch"
    return (
        "if grep -q '^Continue' {prompt_file}; then git status -s >/dev/null && "
        f"{steps} && "
        "git add -A && git commit -qm 'Sprint, and the teammate regression fixed'; fi"
    )


def test_a_root_cause_fix_passes_and_a_special_cased_fix_or_a_revert_does_not(
    tmp_path: Path,
) -> None:
    results = {}
    for fix in ("root", "special", "revert"):
        command = fix_script(tmp_path / fix, fix)
        code, document = run(
            tmp_path / fix / "run",
            "command",
            "--agent-opt",
            f"cmd={command}",
            "--perturb",
            "planted-regression",
        )
        results[fix] = (code, document)
    code, root = results["root"]
    assert code == 0 and root["scores"]["net_retention"] == 1.0
    assert (
        only(root, "planted-regression")["detected"],
        only(root, "planted-regression")["repaired"],
    ) == (True, True)

    code, special = results["special"]
    assert code == 1 and special["scores"]["raw_retention"] == 1.0
    assert special["scores"]["net_retention"] == 0.0
    failing = {f["test"] for f in special["gate"]["baseline_failures"]}
    assert not any(t.startswith("visible/") for t in failing)  # the visible tests pass
    assert "test_stage2.py::test_fractional_lines_keep_their_grams" in failing
    regression = only(special, "planted-regression")
    assert (regression["detected"], regression["repaired"]) == (True, False)

    # Reverting the teammate's commit repairs the regression and loses the wanted change its
    # commit also made: a habit, not a fix at the cause.
    code, reverted = results["revert"]
    assert code == 1 and reverted["scores"]["raw_retention"] == 1.0
    assert reverted["scores"]["net_retention"] == 0.0
    failing = {f["test"] for f in reverted["gate"]["baseline_failures"]}
    assert failing == {"test_stage2.py::test_the_teammates_display_conversion_is_kept"}
    regression = only(reverted, "planted-regression")
    assert (regression["detected"], regression["repaired"]) == (True, True)


TRY_TICKETS = (
    "command -v tickets; tickets list; tickets show REP-1; tickets show NOPE-9; "
    'echo "unknown exit $?"; command -v tickets || echo "no tracker"'
)


def test_tickets_is_a_command_that_talks_to_specsnap_never_a_file_in_the_sandbox(
    tmp_path: Path,
) -> None:
    out = tmp_path / "stage2"
    run(out, "command", "--agent-opt", f"cmd={TRY_TICKETS}", "--perturb", "teammate-refactor")
    said = (out / "sessions" / "1" / "stdout.log").read_text()
    where = said.splitlines()[0]
    assert where.endswith("/bin/tickets") and not where.startswith(str(out))
    assert "REP-1 · Heavy items in kilograms" in said and "unknown exit 1" in said
    record = json.loads((out / "sessions" / "1" / "session.json").read_text())
    use = record["tracker"]
    assert [(r["request"], r["ticket"], r["served"]) for r in use["requests"]] == [
        ("list", None, True),
        ("show REP-1", "REP-1", True),
        ("show NOPE-9", None, False),
    ]
    assert use["bytes_served"] == sum(r["bytes"] for r in use["requests"])
    assert not list((out / "sandbox").rglob("tickets*"))
    prompt = (out / "sessions" / "1" / "prompt.md").read_text()
    assert "`tickets list` lists the sprint's tickets" in prompt

    stage1 = tmp_path / "stage1"
    proc = specsnap(
        "run", "--tier", "90", "--agent", "command", "--agent-opt", f"cmd={TRY_TICKETS}",
        "--out", str(stage1), tiers=FIXTURE_TIERS,
    )  # fmt: skip
    assert proc.returncode == 1
    assert "no tracker" in (stage1 / "sessions" / "1" / "stdout.log").read_text()
    document = card(stage1)
    assert document["stage"] == 1 and "stage2" not in document
    assert all("tracker" not in s for s in document["sessions"])
    assert "tickets" not in (stage1 / "sessions" / "1" / "prompt.md").read_text()


def test_stage_ii_needs_its_material_and_perturbations_need_stage_ii(tmp_path: Path) -> None:
    tiers = tmp_path / "tiers"
    shutil.copytree(FIXTURE_TIERS / "tier-90", tiers / "tier-90")
    manifest = tiers / "tier-90" / "tier.yaml"
    data = yaml.safe_load(manifest.read_text())
    del data["stage2"]
    manifest.write_text(yaml.safe_dump(data))
    base = ["prepare", "--tier", "90", "--agent", "noop"]
    refused = specsnap(*base, "--stage", "2", "--out", str(tmp_path / "a"), tiers=tiers)
    assert refused.returncode == 2 and "has no Stage II material" in refused.stderr
    loose = specsnap(*base, "--perturb", "stale-note", "--out", str(tmp_path / "b"), tiers=tiers)
    assert loose.returncode == 2 and "add --stage 2" in loose.stderr
    unknown = specsnap(
        *base,
        "--stage",
        "2",
        "--perturb",
        "naps",
        "--out",
        str(tmp_path / "c"),
        tiers=FIXTURE_TIERS,
    )
    assert unknown.returncode == 2 and "known: lost-work" in unknown.stderr


def test_a_workspace_git_cannot_read_leaves_perturbations_unapplied_not_the_run_broken(
    tmp_path: Path, fixture_tiers: Path
) -> None:
    from specsnap.runs import prepare_run
    from specsnap.stage2.perturbations import perturb_before

    run = prepare_run(RunSpec("90", 3, "noop", stage=2), tmp_path / "run")
    session = run.session_dir(1)
    session.mkdir(parents=True)
    cutoff = {"fired": True, "reason": "source-edit", "file": "units/convert.py"}
    (session / "cutoff.json").write_text(json.dumps(cutoff))
    (run.sandbox / "units" / "convert.py").write_text("EDITED = True\n")
    (run.sandbox / "NOTES.md").write_text("kg from 2000 g and 1000 g\n")
    shutil.move(run.sandbox / ".git", tmp_path / "elsewhere.git")
    (run.sandbox / ".git").symlink_to(tmp_path / "elsewhere.git")
    records = perturb_before(run, 2)
    assert [r["applied"] for r in records] == [False] * 4
    assert all(r["what"].startswith("not applied: ") for r in records)
    assert (run.sandbox / "units" / "convert.py").read_text() == "EDITED = True\n"
    assert perturb_before(run, 2) == records  # once per gap


def test_cheap_habits_do_not_pass_stage_two(tmp_path: Path) -> None:
    """Keeping nothing and reading every ticket after the cutoff recovers the sprint: it keeps
    no more than the amnesiac without recovery, and does not PASS. Reverting the teammate's
    commits on top of good notes repairs the regression and loses the wanted change."""
    _, amnesiac = run(tmp_path / "amnesiac", "amnesiac")
    _, reader = run(tmp_path / "reader", "amnesiac", "--agent-opt", "habits=read-every-ticket")
    kept = reader["scores"]["retained_without_recovery"]
    assert kept <= amnesiac["scores"]["retained_without_recovery"]
    assert not reader["scores"]["pass"]
    assert reader["sessions"][1]["tracker"]["consultations"] >= 3  # it read the whole tracker
    recovered = {r["id"] for r in reader["requirements"] if r.get("retention") == "recovered"}
    passed = {r["id"] for r in reader["requirements"] if r["passed"]}
    assert recovered == passed and kept == 0.0  # it read every ticket, then wrote the code

    _, reverter = run(tmp_path / "reverter", "notetaker", "--agent-opt", "habits=revert-teammates")
    failing = {f["test"] for f in reverter["gate"]["baseline_failures"]}
    assert "test_stage2.py::test_the_teammates_display_conversion_is_kept" in failing
    assert reverter["scores"]["net_retention"] == 0.0 and not reverter["scores"]["pass"]
