"""The ledger's rules: the Stage II unlock flips exactly once, stages follow it, the chain shows
every edit, insertion and deletion."""

from __future__ import annotations

import dataclasses

import pytest

from specsnap.ledger.chain import (
    REBUILD_CHECKS,
    UNLOCK_TES,
    Ledger,
    Outcome,
    chain_problems,
    extension_problems,
    judge,
    qualifies,
    stage_for,
    unlocking_entry,
)
from specsnap.ledger.entry import GENESIS, Candidate, Entry, decode_entry, encode_entry
from tests.support.ledgers import attestation, candidate

NOW = "2025-01-02T03:04:05Z"


def grow(*candidates: Candidate) -> tuple[Ledger, list[Outcome]]:
    ledger = Ledger()
    outcomes = []
    for c in candidates:
        judgement = judge(ledger, c, NOW)
        outcomes.append(judgement.outcome)
        if judgement.outcome is Outcome.APPENDED:
            assert judgement.entry is not None
            ledger = ledger.extended(judgement.entry)
    return ledger, outcomes


def test_the_unlock_flips_exactly_once_on_the_first_qualifying_scorecard() -> None:
    ledger, outcomes = grow(
        candidate(seed=1, net=0.5, tes=0.5),  # not passed
        candidate(seed=2, net=1.0, tes=0.74),  # passed, TES just short
        candidate(seed=3, net=0.875, tes=0.8),  # the first that qualifies
        candidate(seed=4, net=1.0, tes=1.0, stage=2),  # qualifies too, in Stage II
        candidate(seed=5, net=1.0, tes=0.9, stage=2),
    )
    assert outcomes == [Outcome.APPENDED] * 5
    flags = [e.unlocks_stage_2 for e in ledger.entries]
    assert flags == [False, False, True, False, False]
    unlocker = unlocking_entry(ledger.entries)
    assert unlocker is not None and unlocker.candidate.seed == 3
    assert [stage_for(ledger.entries[:n]) for n in range(6)] == [1, 1, 1, 2, 2, 2]
    assert chain_problems(ledger) == []


@pytest.mark.parametrize(
    ("net", "tes", "passed", "expected"),
    [
        (1.0, UNLOCK_TES, True, True),
        (1.0, UNLOCK_TES - 1e-6, True, False),
        (0.75, 0.75, True, True),
        (0.7, 0.9, False, False),  # TES high, but no PASS
        (1.0, None, True, False),  # unknown tokens: no TES, no unlock
    ],
)
def test_what_qualifies(net: float, tes: float | None, passed: bool, expected: bool) -> None:
    assert qualifies(candidate(net=net, tes=tes, passed=passed)) is expected


def test_stage_ii_before_the_unlock_is_refused_with_the_reason() -> None:
    judgement = judge(Ledger(), candidate(stage=2), NOW)
    assert judgement.outcome is Outcome.REFUSED and judgement.entry is None
    assert judgement.reasons == (
        "Stage II is locked: no verified scorecard has PASS and TES ≥ 75% yet, so a Stage II "
        "run is a rehearsal, not an evaluation",
    )


def test_stage_i_after_the_unlock_is_refused_naming_the_unlocking_entry() -> None:
    ledger, _ = grow(candidate(seed=1))
    judgement = judge(ledger, candidate(seed=2), NOW)
    assert judgement.outcome is Outcome.REFUSED
    (reason,) = judgement.reasons
    assert reason.startswith("Stage II was unlocked by entry #0 (tier-1, seed 1, notetaker)")


def test_an_unofficial_scorecard_is_refused_with_its_reasons() -> None:
    judgement = judge(Ledger(), candidate(official=False), NOW)
    assert judgement.outcome is Outcome.REFUSED
    assert judgement.reasons == (
        "the scorecard is not official (token budget 1 instead of 2); the ledger records "
        "official ones",
    )


def test_the_same_scorecard_is_recorded_once() -> None:
    first = candidate(seed=1, net=0.5, tes=0.5)
    ledger, outcomes = grow(first, first)
    assert outcomes == [Outcome.APPENDED, Outcome.ALREADY]
    again = judge(ledger, first, NOW)
    assert again.entry == ledger.entries[0] and len(ledger.entries) == 1


def test_attested_means_an_attestation_whose_signature_was_checked() -> None:
    ledger, _ = grow(
        candidate(seed=1, net=0.5, tes=0.5, attestation=attestation(signature_checked=True)),
        candidate(seed=2, net=0.5, tes=0.5, attestation=attestation(signature_checked=False)),
        candidate(seed=3, net=0.5, tes=0.5),
    )
    assert [e.attested for e in ledger.entries] == [True, False, False]


#: The checks of `specsnap verify` without the run: the file agrees with itself, no more.
CONSISTENCY = (
    "scorecard_sha256",
    "receipt.seed",
    "receipt.stage",
    "receipt.tier_id",
    "receipt.specsnap_version",
    "tier_sha256",
)


def verified_by(made: Candidate, checks: tuple[str, ...], version: str | None = None) -> Candidate:
    verification = dataclasses.replace(
        made.verification,
        checks=checks,
        specsnap_version=version or made.verification.specsnap_version,
    )
    return dataclasses.replace(made, verification=verification)


@pytest.mark.parametrize(
    ("checks", "version", "reason"),
    [
        (CONSISTENCY, None, "did not pass manifest, version, run, tier, prompts, size, baseline"),
        (tuple(c for c in REBUILD_CHECKS if c != "rebuild"), None, "did not pass rebuild"),
        ((), None, "not rebuilt by the ledger's verification"),
        (REBUILD_CHECKS, "9.9.9", "a rebuild by another version is no proof"),
    ],
    ids=["consistency-only", "no-rebuild", "no-checks", "other-version"],
)
def test_a_scorecard_the_ledger_did_not_rebuild_is_refused_and_unlocks_nothing(
    checks: tuple[str, ...], version: str | None, reason: str
) -> None:
    forged = verified_by(candidate(seed=1), checks, version)
    assert qualifies(forged)  # on its scores alone it would unlock
    judgement = judge(Ledger(), forged, NOW)
    assert judgement.outcome is Outcome.REFUSED and judgement.entry is None
    assert any(reason in r for r in judgement.reasons), judgement.reasons


def test_an_action_run_unlocks_only_with_its_attestation_verified() -> None:
    ledger, outcomes = grow(
        candidate(seed=1, attestation=attestation(signature_checked=False)),  # carried along
        candidate(seed=2, attestation=attestation(signature_checked=True)),  # verified
    )
    assert outcomes == [Outcome.APPENDED] * 2
    assert [(e.attested, e.unlocks_stage_2) for e in ledger.entries] == [
        (False, False),
        (True, True),
    ]
    assert chain_problems(ledger) == []
    local, _ = grow(candidate(seed=3))  # no attestation: a run rebuilt by the ledger unlocks
    assert local.entries[0].unlocks_stage_2


def test_a_forged_unlocking_entry_breaks_the_ledger_even_with_its_chain_rebuilt() -> None:
    """A line written by hand — a qualifying scorecard the ledger never rebuilt, or an Action
    run whose attestation was never verified, marked as the unlock — is caught by the replay,
    and nothing is decided on a broken ledger."""
    ledger, _ = grow(candidate(seed=1, net=0.5, tes=0.5))
    unrebuilt = verified_by(candidate(seed=2), CONSISTENCY)
    unverified = candidate(seed=3, attestation=attestation(signature_checked=False))
    for forged_candidate, why in (
        (unrebuilt, "did not pass manifest"),
        (unverified, "is marked as the entry that unlocked Stage II; the rule says it is not"),
    ):
        forged = ledger.extended(
            Entry(1, ledger.head, NOW, forged_candidate, False, unlocks_stage_2=True)
        )
        problems = chain_problems(forged)
        assert problems and all(p.startswith("entry #1: ") for p in problems)
        assert any(why in p for p in problems), problems


def test_entries_are_chained_by_the_digest_of_the_line_before() -> None:
    ledger, _ = grow(*(candidate(seed=s, net=0.5, tes=0.5) for s in range(3)))
    assert ledger.entries[0].previous == GENESIS
    assert [e.previous for e in ledger.entries[1:]] == list(ledger.digests[:2])
    line = encode_entry(ledger.entries[1])
    assert decode_entry(line, "line 2") == ledger.entries[1]


def replaced(ledger: Ledger, index: int, entry: Entry) -> Ledger:
    entries = list(ledger.entries)
    entries[index] = entry
    rebuilt = Ledger()
    for e in entries:  # digests of the lines as they would now be stored
        rebuilt = Ledger((*rebuilt.entries, e), (*rebuilt.digests, *Ledger().extended(e).digests))
    return rebuilt


def test_an_edited_entry_breaks_the_link_after_it() -> None:
    ledger, _ = grow(*(candidate(seed=s, net=0.5, tes=0.5) for s in range(3)))
    first = ledger.entries[0]
    better = dataclasses.replace(
        first, candidate=dataclasses.replace(first.candidate, net_retention=0.875)
    )
    problems = chain_problems(replaced(ledger, 0, better))
    assert len(problems) == 1 and problems[0].startswith("entry #1: previous is ")
    assert "an entry before it was changed, added or removed" in problems[0]


def test_a_deleted_entry_breaks_the_chain_and_the_numbering() -> None:
    ledger, _ = grow(*(candidate(seed=s, net=0.5, tes=0.5) for s in range(3)))
    without = Ledger((ledger.entries[0], ledger.entries[2]), (ledger.digests[0], ledger.digests[2]))
    problems = chain_problems(without)
    assert problems[0] == "entry #2: is at position 1"
    assert problems[1].startswith("entry #2: previous is ")


def test_a_moved_unlock_mark_is_caught_even_when_the_chain_is_rebuilt() -> None:
    """A forger who rewrites the whole chain still cannot move the unlock: the rules replay."""
    ledger, _ = grow(candidate(seed=1, net=0.5, tes=0.5), candidate(seed=2))
    forged = Ledger()
    for entry, unlock in zip(ledger.entries, (True, False), strict=True):
        moved = dataclasses.replace(entry, previous=forged.head, unlocks_stage_2=unlock)
        forged = forged.extended(moved)
    problems = chain_problems(forged)
    assert problems == [
        "entry #0: is marked as the entry that unlocked Stage II; the rule says it is not",
        "entry #1: is not marked as the entry that unlocked Stage II; the rule says it is",
    ]


def test_a_claimed_attestation_without_a_checked_signature_is_caught() -> None:
    ledger, _ = grow(candidate(seed=1, net=0.5, tes=0.5))
    forged = Ledger().extended(dataclasses.replace(ledger.entries[0], attested=True))
    assert chain_problems(forged) == ["entry #0: attested is True; its attestation says not"]


def test_a_later_ledger_must_keep_every_earlier_entry() -> None:
    ledger, _ = grow(*(candidate(seed=s, net=0.5, tes=0.5) for s in range(3)))
    earlier = Ledger(ledger.entries[:2], ledger.digests[:2])
    assert extension_problems(earlier, ledger) == []
    assert extension_problems(ledger, earlier) == [
        "the ledger has 2 entries; the earlier one had 3: entries were removed"
    ]
    other, _ = grow(*(candidate(seed=s, net=0.625, tes=0.5) for s in range(3)))
    assert extension_problems(earlier, other) == [
        "entry #0 differs from the earlier ledger's",
        "entry #1 differs from the earlier ledger's",
    ]


def test_a_line_must_be_exactly_the_canonical_encoding() -> None:
    ledger, _ = grow(candidate(seed=1, net=0.5, tes=0.5))
    line = encode_entry(ledger.entries[0])
    with pytest.raises(ValueError, match="line 1: not in canonical form"):
        decode_entry(line.replace(b'"index":0', b'"index":0,"note":"x"'), "line 1")
    with pytest.raises(ValueError, match="line 1: not in canonical form"):
        decode_entry(line.replace(b'"index":0', b'"index": 0'), "line 1")
    with pytest.raises(ValueError, match=r"line 1: candidate\.seed: got 'x'"):
        decode_entry(line.replace(b'"seed":1', b'"seed":"x"'), "line 1")
    with pytest.raises(ValueError, match="line 1: not JSON"):
        decode_entry(line[:-1], "line 1")


def test_the_status_names_the_unlocking_entry_once() -> None:
    from specsnap.render.ledger import status_json, status_text

    locked, _ = grow(candidate(seed=1, net=0.5, tes=0.5))
    assert status_text("l.jsonl", locked).splitlines()[1:] == [
        "Stage II: locked (no verified scorecard has PASS and TES ≥ 75% yet)",
        "every evaluation runs: Stage I",
    ]
    unlocked, _ = grow(candidate(seed=1, net=0.5, tes=0.5), candidate(seed=2))
    lines = status_text("l.jsonl", unlocked).splitlines()
    assert lines[0] == f"l.jsonl: 2 entries, head {unlocked.head}"
    assert lines[1].startswith("Stage II: unlocked by entry #1: tier-1, seed 2, notetaker, Stage I")
    assert "unlocked Stage II" not in lines[1]
    assert lines[-1] == "every evaluation runs: Stage II"
    data = status_json(unlocked)
    assert (data["stage_required"], data["entries"]) == (2, 2)
    assert data["unlocked_by"]["index"] == 1  # type: ignore[index]


def test_only_a_fresh_run_unlocks_stage_ii() -> None:
    resumed = dataclasses.replace(candidate(seed=3, net=1.0, tes=1.0), handoff="resume")
    ledger, outcomes = grow(resumed, candidate(seed=4, net=1.0, tes=1.0))
    assert outcomes == [Outcome.APPENDED] * 2 and not qualifies(resumed)
    assert [e.unlocks_stage_2 for e in ledger.entries] == [False, True]
    assert chain_problems(ledger) == []
