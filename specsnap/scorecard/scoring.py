"""The scores of docs/protocol.md, as pure functions over plain values."""

from __future__ import annotations

from collections.abc import Sequence

from specsnap.scorecard.model import Scores, Session, Tokens

CACHE_READ_WEIGHT = 0.1
PASSING = "passed"


def requirement_passed(outcomes: Sequence[str]) -> bool:
    """A requirement passes iff it has tests and every one of them passed."""
    return bool(outcomes) and all(outcome == PASSING for outcome in outcomes)


def effective_tokens(sessions: Sequence[Tokens], weight: float = CACHE_READ_WEIGHT) -> float | None:
    """input + output + cache_write + weight × cache_read, all sessions; None if any is unknown."""
    if any(s.source == "unknown" for s in sessions):
        return None
    return float(
        sum(s.input + s.output + s.cache_write for s in sessions)
        + weight * sum(s.cache_read for s in sessions)
    )


def token_trust_problems(sessions: Sequence[Session]) -> list[str]:
    """Why the sessions' tokens cannot feed an official TES; empty when they all can.

    TES is official only from enforced metering: SpecSnap's meter counted the tokens (it held
    the API key), and the agent's network egress was confined to it, so no request could go
    around it. Tokens the agent reported itself still give a TES, but only an unofficial one.
    Unknown tokens give no TES at all, so by themselves they make no scorecard unofficial; but
    a model answer the meter forwarded and could not read the usage of does: the tokens then
    went through SpecSnap's meter uncounted. So does a meter that forwarded to another address
    than the API's public one (a gateway, a proxy, a scripted server): the counts are that
    address's, which SpecSnap cannot check. SpecSnap's own model-free controls are metered
    without routes (`meter.apis` empty): no egress needed.
    """
    problems = []
    for session in sessions:
        index, source, meter = session.index, session.tokens.source, session.meter
        if meter is not None and meter.unreadable_answers:
            problems.append(
                f"session {index}: the meter could not read the usage of "
                f"{meter.unreadable_answers} model answer(s), so its tokens are unknown"
            )
        for api, url in sorted((meter.upstreams or {}).items()) if meter is not None else ():
            problems.append(
                f"session {index}: the meter forwarded {api} requests to {url}, not the API's "
                "public address, so SpecSnap cannot check the token counts it answered"
            )
        if source == "reported":
            problems.append(f"session {index}: the agent reported its own tokens; none metered")
        elif (
            source == "metered" and meter is not None and meter.apis and not session.egress_enforced
        ):
            problems.append(
                f"session {index}: the agent's egress was not confined to the meter, "
                "so its requests may have gone around it"
            )
    return problems


def compute_scores(
    requirements_passed: Sequence[bool],
    gate_holds: bool,
    sessions: Sequence[Tokens],
    budget: int,
    pass_threshold: float,
    retained: Sequence[bool] | None = None,
) -> Scores:
    """Raw and net retention, TES and PASS from the graded facts. Stage II gives `retained`
    (per requirement: passed with its ticket unread, docs/protocol.md): retention without
    recovery is then its share, gated like net, and PASS reads it instead of net."""
    total = len(requirements_passed)
    raw = _fraction(sum(requirements_passed) / total if total else 0.0)
    net = raw if gate_holds else 0.0
    kept = None
    if retained is not None:
        kept = _fraction(sum(retained) / total if total and gate_holds else 0.0)
    effective = effective_tokens(sessions)
    if effective is None:
        tes = None
    else:
        tes = _fraction(net * min(1.0, budget / effective) if effective > 0 else net)
    return Scores(
        raw_retention=raw,
        net_retention=net,
        effective_tokens=effective,
        cache_read_weight=CACHE_READ_WEIGHT,
        budget=budget,
        tes=tes,
        passed=(net if kept is None else kept) >= pass_threshold,
        pass_threshold=pass_threshold,
        retained_without_recovery=kept,
    )


def _fraction(value: float) -> float:
    # Six decimals keep scorecards stable across platforms' float formatting.
    return round(min(1.0, max(0.0, value)), 6)
