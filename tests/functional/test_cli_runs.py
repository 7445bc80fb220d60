"""`specsnap` end to end on the fixture tier: runs, step order, determinism, verify, validate."""

from __future__ import annotations

import json
from pathlib import Path

from specsnap.tier.prompts import CONTINUATION_PROMPT
from tests.conftest import FIXTURE_TIERS
from tests.functional.cli import card, specsnap, without_timings


def test_notetaker_amnesiac_noop(tmp_path: Path) -> None:
    results = {}
    for agent in ("notetaker", "amnesiac", "noop"):
        out = tmp_path / agent
        proc = specsnap(
            "run",
            "--tier",
            "90",
            "--agent",
            agent,
            "--seed",
            "3",
            "--out",
            str(out),
            tiers=FIXTURE_TIERS,
        )
        assert proc.returncode == (0 if agent == "notetaker" else 1), proc.stderr
        results[agent] = card(out)
    note = results["notetaker"]
    assert note["scores"]["net_retention"] == 1.0
    assert (
        note["sessions"][0]["cutoff"]["fired"] and note["sessions"][0]["exit"]["status"] == "cutoff"
    )
    assert not note["sessions"][1]["cutoff"]["armed"]
    assert results["amnesiac"]["scores"]["raw_retention"] < 1.0
    assert results["noop"]["scores"]["raw_retention"] == 0.0
    assert results["noop"]["sessions"][0]["cutoff"] == {
        "armed": True,
        "fired": False,
        "reason": None,
        "file": None,
        "change": None,
        "latency_ms": None,
        "after_s": None,
    }
    prompt2 = (tmp_path / "notetaker" / "sessions" / "2" / "prompt.md").read_bytes()
    assert prompt2 == CONTINUATION_PROMPT.encode()


def test_same_seed_and_agent_give_the_same_scorecard(tmp_path: Path) -> None:
    cards = []
    for name in ("a", "b"):
        out = tmp_path / name
        specsnap(
            "run",
            "--tier",
            "90",
            "--agent",
            "amnesiac",
            "--seed",
            "11",
            "--out",
            str(out),
            tiers=FIXTURE_TIERS,
        )
        cards.append(without_timings(card(out)))
    assert cards[0] == cards[1]
    assert cards[0]["receipt"]["head_commit"] is not None


def test_steps_refuse_to_run_out_of_order(tmp_path: Path) -> None:
    out = tmp_path / "run"
    assert (
        specsnap(
            "prepare", "--tier", "90", "--agent", "noop", "--out", str(out), tiers=FIXTURE_TIERS
        ).returncode
        == 0
    )
    again = specsnap(
        "prepare", "--tier", "90", "--agent", "noop", "--out", str(out), tiers=FIXTURE_TIERS
    )
    assert again.returncode == 0, "preparing the same run twice is a no-op"
    other = specsnap(
        "prepare", "--tier", "90", "--agent", "amnesiac", "--out", str(out), tiers=FIXTURE_TIERS
    )
    assert other.returncode == 2 and "different run" in other.stderr
    early = specsnap("session", str(out), "2", tiers=FIXTURE_TIERS)
    assert early.returncode == 2 and "run session 1 first" in early.stderr
    ungraded = specsnap("grade", str(out), tiers=FIXTURE_TIERS)
    assert ungraded.returncode == 2 and "session 1 has not run" in ungraded.stderr
    assert specsnap("session", str(out), "1", tiers=FIXTURE_TIERS).returncode == 0
    twice = specsnap("session", str(out), "1", tiers=FIXTURE_TIERS)
    assert twice.returncode == 2 and "already ran" in twice.stderr
    assert specsnap("session", str(out), "2", tiers=FIXTURE_TIERS).returncode == 0
    assert specsnap("grade", str(out), tiers=FIXTURE_TIERS).returncode == 1  # noop fails


def test_baseline_commit_is_deterministic_and_sandbox_is_clean(tmp_path: Path) -> None:
    heads = []
    for seed in ("1", "1", "2"):
        out = tmp_path / f"run{len(heads)}"
        specsnap(
            "prepare",
            "--tier",
            "90",
            "--agent",
            "noop",
            "--seed",
            seed,
            "--out",
            str(out),
            tiers=FIXTURE_TIERS,
        )
        heads.append(json.loads((out / "run.json").read_text())["baseline_commit"])
        git_dir = out / "sandbox" / ".git"
        assert not (git_dir / "logs").exists() and not list((git_dir / "refs" / "tags").iterdir())
        assert not (out / "sandbox" / "grader").exists()
        assert not list((out / "sandbox").rglob("test_unit_1.py"))
    assert heads[0] == heads[1]


def test_validate_fixture_tier_and_bad_input_exit_codes(tmp_path: Path) -> None:
    """The fixture tier is sound but easy to memorise (UNIT-1 draws nothing, REP-1 one of two
    limits), and one of its four mutants is equivalent: validate says exactly that."""
    proc = specsnap("tiers", "validate", "tier-90", "--mutants", tiers=FIXTURE_TIERS)
    assert proc.returncode == 1, proc.stdout
    failed = [line.strip() for line in proc.stdout.splitlines() if line.startswith("  FAIL")]
    assert failed == [
        "FAIL UNIT-1: another seed's draw matches its behaviour 1 time in 1 (at most 1 in 20)",
        "FAIL REP-1: another seed's draw matches its behaviour 1 time in 2 (at most 1 in 20)",
        "FAIL mutants: 3 of 4 killed (75.0%; at least 97%)",
    ]
    assert "tier-90: 26 checks, INVALID (3 failed)" in proc.stdout
    assert "SURVIVED UNIT-1-ounce-in-grams-name" in proc.stdout
    assert (
        "seed 0's reference with seed 2's names graded for seed 2: fails the 1 requirement(s)"
        in proc.stdout
    )
    unknown = specsnap(
        "run",
        "--tier",
        "90",
        "--agent",
        "nobody",
        "--out",
        str(tmp_path / "x"),
        tiers=FIXTURE_TIERS,
    )
    assert unknown.returncode == 2 and "known agents:" in unknown.stderr
    assert "Traceback" not in unknown.stderr


def test_schema_list_show_and_agents() -> None:
    schema = json.loads(specsnap("schema", "tier").stdout)
    assert schema["title"].startswith("SpecSnap tier manifest")
    assert "tier-90" in specsnap("tiers", "list", tiers=FIXTURE_TIERS).stdout
    shown = specsnap("tiers", "show", "90", "--seed", "1", tiers=FIXTURE_TIERS).stdout
    assert "(UNIT-1)" in shown and "(REP-1)" in shown and "packages: units, report" in shown
    assert {"notetaker", "amnesiac", "noop", "command", "claude-code"} <= set(
        specsnap("agents").stdout.split()
    )


def test_broken_tier_yaml_is_a_clear_input_error(tmp_path: Path) -> None:
    import shutil

    shutil.copytree(FIXTURE_TIERS / "tier-90", tmp_path / "tier-90")
    manifest = tmp_path / "tier-90" / "tier.yaml"
    manifest.write_text(
        manifest.read_text().replace("budget_tokens: 100000", "budget_tokens: lots")
    )
    proc = specsnap("tiers", "show", str(tmp_path / "tier-90"))
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert f'{manifest}: budget_tokens: got "lots"; expected a value of type integer' in proc.stderr
