"""Scores (docs/protocol.md) as pure functions."""

from __future__ import annotations

from dataclasses import replace

import pytest

from specsnap.scorecard.model import Meter, Session, Tokens
from specsnap.scorecard.scoring import (
    compute_scores,
    effective_tokens,
    requirement_passed,
    token_trust_problems,
)
from tests.support.scorecards import fixture_document

REPORTED = Tokens(100, 50, 10, 1000, "reported")


@pytest.mark.parametrize(
    ("outcomes", "passed"),
    [
        (["passed", "passed"], True),
        (["passed", "failed"], False),
        (["skipped"], False),
        (["xfailed"], False),
        (["not-collected"], False),
        ([], False),
        (["error"], False),
    ],
)
def test_requirement_passes_only_when_every_test_passed(outcomes: list[str], passed: bool):
    assert requirement_passed(outcomes) is passed


def test_effective_tokens_weights_cache_reads():
    assert effective_tokens([REPORTED, REPORTED]) == 2 * (100 + 50 + 10 + 0.1 * 1000)


def test_unknown_tokens_make_tes_null_never_a_guess():
    s = compute_scores([True, True], True, [REPORTED, Tokens.unknown()], 1000, 0.75)
    assert s.effective_tokens is None and s.tes is None
    assert s.net_retention == 1.0


def test_gate_failure_zeroes_net_but_not_raw():
    s = compute_scores([True, False, True, True], False, [REPORTED], 10_000, 0.75)
    assert (s.raw_retention, s.net_retention, s.tes, s.passed) == (0.75, 0.0, 0.0, False)


def test_tes_scales_by_budget_over_effective_tokens():
    s = compute_scores([True] * 4, True, [Tokens(2000, 0, 0, 0, "reported")], 1000, 0.75)
    assert s.tes == 0.5
    s = compute_scores([True] * 4, True, [Tokens(500, 0, 0, 0, "reported")], 1000, 0.75)
    assert s.tes == 1.0


def test_pass_threshold_is_inclusive():
    s = compute_scores([True, True, True, False], True, [REPORTED], 10**6, 0.75)
    assert s.passed and s.net_retention == 0.75
    s = compute_scores([True, True, False, False], True, [REPORTED], 10**6, 0.75)
    assert not s.passed


def test_only_enforced_metering_keeps_a_tes_official() -> None:
    base = Session.from_record(fixture_document("tier-4-seed-1")["sessions"][0])
    metered = Tokens(1, 1, 0, 0, "metered")
    routed = Meter(("openai",), 1, 0, 0, 0, 0)

    def session(index: int, tokens: Tokens, enforced: bool, meter: Meter | None) -> Session:
        return replace(base, index=index, tokens=tokens, egress_enforced=enforced, meter=meter)

    sessions = [
        session(1, metered, True, routed),
        session(2, metered, False, routed),
        session(3, replace(metered, source="reported"), False, None),
        session(4, replace(metered, source="unknown"), False, None),
        session(5, metered, False, replace(routed, apis=())),
        session(6, replace(metered, source="unknown"), True, replace(routed, unreadable_answers=2)),
        session(7, metered, True, replace(routed, upstreams={"openai": "https://gw.example/v1"})),
    ]
    assert token_trust_problems(sessions) == [
        "session 2: the agent's egress was not confined to the meter, "
        "so its requests may have gone around it",
        "session 3: the agent reported its own tokens; none metered",
        "session 6: the meter could not read the usage of 2 model answer(s), "
        "so its tokens are unknown",
        "session 7: the meter forwarded openai requests to https://gw.example/v1, not the API's "
        "public address, so SpecSnap cannot check the token counts it answered",
    ]
    assert token_trust_problems(sessions[:1]) == []


def test_stage_two_retention_without_recovery_is_gated_and_decides_pass():
    passed, kept = [True, True, True, True], [True, True, True, False]
    s = compute_scores(passed, True, [REPORTED], 10**6, 0.75, retained=kept)
    assert (s.net_retention, s.retained_without_recovery, s.passed) == (1.0, 0.75, True)
    s = compute_scores(passed, True, [REPORTED], 10**6, 0.75, retained=[True, True, False, False])
    assert (s.net_retention, s.retained_without_recovery, s.passed) == (1.0, 0.5, False)
    s = compute_scores(passed, False, [REPORTED], 10**6, 0.75, retained=kept)
    assert (s.retained_without_recovery, s.passed) == (0.0, False)
    assert compute_scores(passed, True, [REPORTED], 10**6, 0.75).retained_without_recovery is None
