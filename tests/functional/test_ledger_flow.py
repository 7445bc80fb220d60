"""Submissions into the curriculum ledger, end to end with real runs of the fixture tier.

Three real runs (amnesiac seed 1, notetaker seeds 1 and 2; cutoffs, grading and all), each
bundled by `specsnap submit`, then verified and appended by `specsnap ledger append` in
subprocesses, as the leaderboard workflow does. The ledger must flip exactly once, on the first
verified qualifying scorecard, and refuse every bundle that does not rebuild, with the reason.

Official scorecards need SpecSnap to run as root with the tier unreadable to the agent's
account, as in the Action's container: the fixture tier is copied into a root-only directory.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from specsnap.ledger.chain import REBUILD_CHECKS, Outcome
from specsnap.ledger.entry import GENESIS, Entry, encode_entry
from specsnap.ledger.store import append_candidate
from specsnap.scorecard.io import load_scorecard
from specsnap.scorecard.receipt import seal
from specsnap.submission.archive import (
    ATTESTATION,
    MANIFEST,
    RUN,
    SANDBOX,
    SCORECARD,
    manifest_of,
    read_archive,
    sha256_hex,
    write_archive,
)
from specsnap.submission.verification import candidate_of
from specsnap.verify import Scope, verify_scorecard
from tests.conftest import FIXTURE_TIERS
from tests.functional.cli import specsnap
from tests.support.attestations import attestation_file

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        os.geteuid() != 0,
        reason="official scorecards need root (an agent account of its own, a root-only tier)",
    ),
]

Members = dict[str, bytes]


class Runs:
    def __init__(self, base: Path) -> None:
        self.base = base
        self.tiers = base / "tiers"

    def bundle(self, name: str) -> Path:
        return self.base / name / "submission.specsnap.tar"


@pytest.fixture(scope="module")
def runs() -> Iterator[Runs]:
    base = Path(tempfile.mkdtemp(prefix="specsnap-ledger-", dir="/tmp"))
    base.chmod(0o711)
    made = Runs(base)
    shutil.copytree(FIXTURE_TIERS / "tier-90", made.tiers / "tier-90")
    subprocess.run(["chmod", "-R", "go-rwx", str(made.tiers)], check=True)
    made.tiers.chmod(0o711)
    for agent, seed in (("amnesiac", 1), ("notetaker", 1), ("notetaker", 2)):
        out = base / f"{agent}-{seed}"
        ran = specsnap(
            "run", "--tier", "90", "--agent", agent, "--seed", str(seed), "--out", str(out),
            tiers=made.tiers,
        )  # fmt: skip
        assert ran.returncode in (0, 1), ran.stderr
        card = json.loads((out / SCORECARD).read_text())
        assert card["official"], card["unofficial_reasons"]
        submitted = specsnap("submit", str(out), tiers=made.tiers)
        assert submitted.returncode == 0, submitted.stderr
    yield made
    shutil.rmtree(base, ignore_errors=True)


def append(runs: Runs, ledger: Path, bundle: Path, *extra: str) -> tuple[int, list[str]]:
    done = specsnap("ledger", "append", str(bundle), "--ledger", str(ledger), *extra,
                    tiers=runs.tiers)  # fmt: skip
    assert "Traceback" not in done.stderr, done.stderr
    return done.returncode, (done.stdout + done.stderr).splitlines()


def status(runs: Runs, ledger: Path) -> dict[str, object]:
    done = specsnap("ledger", "status", "--ledger", str(ledger), "--json", tiers=runs.tiers)
    assert done.returncode == 0, done.stderr
    result: dict[str, object] = json.loads(done.stdout)
    return result


def entries(ledger: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in ledger.read_text().splitlines()]


def edited(runs: Runs, source: str, edit: Callable[[Members], None], name: str) -> Path:
    """A copy of a bundle with `edit` applied and its manifest made to agree again, so only the
    checks past the manifest can tell."""
    members = read_archive(runs.bundle(source))
    edit(members)
    card = json.loads(members[SCORECARD])
    members[MANIFEST] = manifest_of(members, card, card["specsnap_version"])
    path = runs.base / f"{name}.specsnap.tar"
    write_archive(path, members)
    return path


def resealed(members: Members, change: Callable[[dict[str, object]], None]) -> None:
    document = json.loads(members[SCORECARD])
    change(document)
    document["receipt"].pop("scorecard_sha256")
    members[SCORECARD] = json.dumps(seal(document), indent=2).encode()


def claims_a_pass(document: dict[str, object]) -> None:
    scores = document["scores"]
    assert isinstance(scores, dict)
    scores.update(raw_retention=1.0, net_retention=1.0, tes=1.0, **{"pass": True})


def test_the_ledger_flips_exactly_once_on_the_first_verified_qualifying_scorecard(
    runs: Runs, tmp_path: Path
) -> None:
    ledger = tmp_path / "ledger.jsonl"
    forged = edited(runs, "amnesiac-1", lambda m: resealed(m, claims_a_pass), "forged-pass")
    code, lines = append(runs, ledger, forged)
    assert code == 1
    assert any(line.startswith("FAIL rebuild: scores.net_retention: ") for line in lines), lines
    assert not ledger.exists() or entries(ledger) == []
    assert status(runs, ledger)["stage_required"] == 1

    code, lines = append(runs, ledger, runs.bundle("amnesiac-1"))
    assert code == 0, lines
    assert lines[-1].startswith(
        "appended: entry #0: tier-90, seed 1, amnesiac, Stage I: not passed"
    )
    assert status(runs, ledger)["unlocked_by"] is None

    code, lines = append(runs, ledger, runs.bundle("notetaker-1"))
    assert code == 0, lines
    assert "ok   rebuild: identical but for timings" in lines
    assert lines[-1].endswith("· unlocked Stage II")
    unlocked = status(runs, ledger)
    assert unlocked["stage_required"] == 2
    assert isinstance(unlocked["unlocked_by"], dict) and unlocked["unlocked_by"]["index"] == 1

    code, lines = append(runs, ledger, runs.bundle("notetaker-1"))
    assert code == 0 and lines[-1].startswith("already recorded: entry #1"), lines

    code, lines = append(runs, ledger, runs.bundle("notetaker-2"))
    assert code == 1
    assert lines[-1].startswith("refused: Stage II was unlocked by entry #1 (tier-90, seed 1")

    recorded = entries(ledger)
    assert [e["unlocks_stage_2"] for e in recorded] == [False, True]
    for entry in recorded:  # the entry says which checks the ledger's verification passed
        checks = entry["candidate"]["verification"]["checks"]  # type: ignore[index]
        assert set(REBUILD_CHECKS) <= set(checks), checks
    assert status(runs, ledger)["unlocked_by"] == unlocked["unlocked_by"]
    verified = specsnap("ledger", "verify", "--ledger", str(ledger), tiers=runs.tiers)
    assert verified.returncode == 0 and verified.stdout.strip().endswith(": intact")


def unsealed_edit(runs: Runs, members: Members) -> None:
    document = json.loads(members[SCORECARD])
    document["scores"]["net_retention"] = 0.875
    members[SCORECARD] = json.dumps(document, indent=2).encode()


def other_tokens(runs: Runs, members: Members) -> None:
    record = json.loads(members["sessions/1/session.json"])
    record["tokens"]["input"] += 1000
    members["sessions/1/session.json"] = json.dumps(record).encode()


def other_prompt(runs: Runs, members: Members) -> None:
    members["sessions/2/prompt.md"] += b"\nAlso, ignore the tests."


def other_history(runs: Runs, members: Members) -> None:
    members[SANDBOX] = read_archive(runs.bundle("amnesiac-1"))[SANDBOX]


def foreign_tier(runs: Runs, members: Members) -> None:
    run = json.loads(members[RUN])
    run.update(tier_id="/tmp/my-own-tier", tier_dir="/tmp/my-own-tier")
    members[RUN] = json.dumps(run).encode()


def other_version(runs: Runs, members: Members) -> None:
    resealed(members, lambda d: d.update(specsnap_version="9.9.9"))


@pytest.mark.parametrize(
    ("edit", "failing"),
    [
        (unsealed_edit, "FAIL scorecard_sha256: recomputed "),
        (other_tokens, "FAIL rebuild: scores.effective_tokens: the scorecard has 0.0, the "
                       "rebuild gives 1000.0; sessions[0].tokens.input: "),
        (other_prompt, "FAIL prompts: session 2: the prompt does not digest to prompt_sha256"),
        (other_history, "FAIL head_commit: "),
        (foreign_tier, "FAIL run: '/tmp/my-own-tier' is not an installed tier (tier-90)"),
        (other_version, "FAIL version: made by SpecSnap 9.9.9; this is "),
    ],
    ids=["unsealed-card", "session-record", "prompt", "history", "foreign-tier", "version"],
)  # fmt: skip
def test_a_bundle_that_does_not_rebuild_is_refused_with_the_reason(
    runs: Runs, tmp_path: Path, edit: Callable[[Runs, Members], None], failing: str
) -> None:
    ledger = tmp_path / "ledger.jsonl"
    bundle = edited(runs, "notetaker-1", lambda members: edit(runs, members), "edited")
    code, lines = append(runs, ledger, bundle)
    assert code == 1, lines
    assert any(line.startswith(failing) for line in lines), "\n".join(lines)
    assert not ledger.exists() or entries(ledger) == []


def test_a_changed_member_fails_the_manifest_first(runs: Runs, tmp_path: Path) -> None:
    members = read_archive(runs.bundle("notetaker-1"))
    members["sessions/1/cutoff.json"] = b"{}"
    bundle = tmp_path / "changed.specsnap.tar"
    write_archive(bundle, members)
    code, lines = append(runs, tmp_path / "ledger.jsonl", bundle)
    assert code == 1
    assert lines[0] == (
        "FAIL manifest: sessions/1/cutoff.json does not match its sha256 in the manifest"
    )


def test_a_hostile_bundle_is_bad_input_and_writes_nothing(runs: Runs, tmp_path: Path) -> None:
    bundle = tmp_path / "hostile.tar"
    payload = tmp_path / "payload"
    (payload / "x").mkdir(parents=True)
    (payload / "x" / "evil.json").write_text("{}")
    subprocess.run(
        ["tar", "-cf", str(bundle), "-C", str(payload / "x"), "--transform", "s,^,../../,",
         "evil.json"],
        check=True,
    )  # fmt: skip
    code, lines = append(runs, tmp_path / "ledger.jsonl", bundle)
    assert code == 2
    assert "'../../evil.json' is not a submission member" in lines[-1]
    assert not (tmp_path.parent.parent / "evil.json").exists()


def test_an_edited_ledger_is_caught_and_nothing_is_decided_on_it(
    runs: Runs, tmp_path: Path
) -> None:
    ledger = tmp_path / "ledger.jsonl"
    for name in ("amnesiac-1", "notetaker-1"):
        assert append(runs, ledger, runs.bundle(name))[0] == 0
    earlier = tmp_path / "earlier.jsonl"
    shutil.copyfile(ledger, earlier)
    text = ledger.read_text()
    ledger.write_text(text.replace('"net_retention":0.5', '"net_retention":0.75', 1))

    verified = specsnap("ledger", "verify", "--ledger", str(ledger), tiers=runs.tiers)
    assert verified.returncode == 1
    assert verified.stdout.startswith("FAIL entry #1: previous is ")
    refused = specsnap("ledger", "status", "--ledger", str(ledger), tiers=runs.tiers)
    assert refused.returncode == 2 and "the ledger is broken" in refused.stderr
    code, lines = append(runs, ledger, runs.bundle("notetaker-2"))
    assert code == 2 and "the ledger is broken" in lines[0]

    ledger.write_text(text.splitlines(keepends=True)[0])  # the last entry deleted
    assert specsnap("ledger", "verify", "--ledger", str(ledger), tiers=runs.tiers).returncode == 0
    extends = specsnap("ledger", "verify", "--ledger", str(ledger), "--extends", str(earlier),
                       tiers=runs.tiers)  # fmt: skip
    assert extends.returncode == 1
    assert "FAIL the ledger has 1 entries; the earlier one had 2: entries were removed" in (
        extends.stdout
    )


def test_an_attestation_travels_in_the_bundle_and_is_recorded(runs: Runs, tmp_path: Path) -> None:
    run_dir = runs.base / "notetaker-1"
    digest = sha256_hex((run_dir / SCORECARD).read_bytes())
    other = tmp_path / "other.jsonl"
    other.write_bytes(attestation_file("0" * 64))
    refused = specsnap("submit", str(run_dir), "--out", str(tmp_path / "x.tar"),
                       "--attestation", str(other), tiers=runs.tiers)  # fmt: skip
    assert refused.returncode == 2 and "does not name this scorecard" in refused.stderr

    attestation = tmp_path / "attestation.jsonl"
    attestation.write_bytes(attestation_file(digest))
    bundle = tmp_path / "attested.specsnap.tar"
    made = specsnap("submit", str(run_dir), "--out", str(bundle), "--attestation",
                    str(attestation), tiers=runs.tiers)  # fmt: skip
    assert made.returncode == 0, made.stderr
    assert read_archive(bundle)[ATTESTATION] == attestation.read_bytes()

    unchecked, checked = tmp_path / "unchecked.jsonl", tmp_path / "checked.jsonl"
    code, lines = append(runs, unchecked, bundle)
    assert code == 0 and "ok   attestation: names this scorecard; signature not checked" in lines
    code, lines = append(runs, checked, bundle, "--attestation-verified")
    assert code == 0, lines
    (plain,), (signed,) = entries(unchecked), entries(checked)
    assert plain["attested"] is False and signed["attested"] is True
    # An Action run unlocks Stage II only with its attestation verified.
    assert plain["unlocks_stage_2"] is False and signed["unlocks_stage_2"] is True
    assert status(runs, unchecked)["stage_required"] == 1
    claims = signed["candidate"]["attestation"]  # type: ignore[index]
    assert claims["subject_sha256"] == digest and claims["signature_checked"] is True
    assert claims["repository"] == "https://github.com/someone/agent"

    code, lines = append(runs, tmp_path / "l.jsonl", runs.bundle("amnesiac-1"),
                         "--attestation-verified")  # fmt: skip
    assert code == 2 and "carries no attestation" in lines[-1]


def test_a_scorecard_the_ledger_did_not_rebuild_never_unlocks_stage_ii(
    runs: Runs, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The real, qualifying scorecard of notetaker-1, taken to the ledger without the ledger's
    rebuild: checked for consistency only (`specsnap verify` without the run), appended through
    the library, or written into the file by hand with the unlock mark."""
    monkeypatch.setenv("SPECSNAP_TIERS_DIR", str(runs.tiers))
    path = runs.base / "notetaker-1" / SCORECARD
    consistency = verify_scorecard(path)
    assert consistency.ok and consistency.scope is Scope.CONSISTENCY
    card = load_scorecard(path)
    made = candidate_of(card, consistency.checks, None, sha256_hex(path.read_bytes()))
    ledger = tmp_path / "ledger.jsonl"
    judgement = append_candidate(ledger, made)
    assert judgement.outcome is Outcome.REFUSED and not ledger.exists()
    assert "not rebuilt by the ledger's verification" in judgement.reasons[0]

    forged = Entry(0, GENESIS, "2025-01-02T03:04:05Z", made, False, unlocks_stage_2=True)
    ledger.write_bytes(encode_entry(forged) + b"\n")
    verified = specsnap("ledger", "verify", "--ledger", str(ledger), tiers=runs.tiers)
    assert verified.returncode == 1 and "not rebuilt by the ledger's verification" in (
        verified.stdout
    )
    monkeypatch.setenv("SPECSNAP_LEDGER", str(ledger))  # which stage to run: the ledger says
    prepared = specsnap("prepare", "--tier", "90", "--agent", "notetaker", "--out",
                        str(tmp_path / "run"), tiers=runs.tiers)  # fmt: skip
    assert prepared.returncode == 2 and "the ledger is broken" in prepared.stderr
    assert not (tmp_path / "run" / "run.json").exists()
