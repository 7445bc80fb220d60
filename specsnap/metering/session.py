"""Metering one agent session: what the session runner starts, hands the agent and settles.

    metering = SessionMetering.start(apis, os.environ, uid, python)   # meter + egress point
    ctx = replace(ctx, routes=metering.routes)                          # the adapter's URLs/keys
    env = metering.environment(env)                                     # no real key in it
    argv = metering.wrap(argv)                                          # egress confined
    usage, record = metering.finish(reported, model_free, notes)        # after the session

The real keys stay in SpecSnap's process: the agent's environment holds per-session placeholders,
and any variable carrying a model API key (or a real key's value under another name) is removed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from specsnap.agents.base import ApiRoute
from specsnap.errors import UsageError
from specsnap.metering.apis import APIS, KEY_VARIABLES
from specsnap.metering.egress import Egress
from specsnap.metering.proxy import TokenMeter, Upstream
from specsnap.scorecard.model import Tokens

#: How long the meter waits, once the agent is gone, for answers the API is still sending.
DRAIN_S = 120.0
#: How many distinct refused endpoints a session's note names.
UNMETERED_SHOWN = 5


@dataclass
class SessionMetering:
    """One session's meter, its routes, and its egress handover (None when not confined)."""

    meter: TokenMeter
    routes: dict[str, ApiRoute]
    egress: Egress | None
    real_keys: frozenset[str]
    placeholders: frozenset[str]

    @classmethod
    def start(
        cls,
        apis: Sequence[str],
        environ: Mapping[str, str],
        uid: int,
        python: str,
        *,
        confine: bool = True,
    ) -> SessionMetering:
        """Open the meter for `apis`, with each API's real key and base URL from `environ`."""
        unknown = [name for name in apis if name not in APIS]
        if unknown:
            raise UsageError(
                f"unknown model API {unknown[0]!r}; the meter knows: {', '.join(sorted(APIS))}"
            )
        upstreams: dict[str, Upstream] = {}
        key_envs: dict[str, str] = {}
        for name in apis:
            api = APIS[name]
            key_env = next((v for v in api.key_envs if environ.get(v)), api.key_envs[0])
            key_envs[name] = key_env
            upstreams[name] = Upstream(
                api,
                environ.get(api.upstream_env) or api.default_upstream,
                environ.get(key_env) or None,
                api.placeholder(),
            )
        meter = TokenMeter(upstreams).start()
        routes = {
            name: ApiRoute(meter.url(name), key_envs[name], upstream.placeholder)
            for name, upstream in upstreams.items()
        }
        return cls(
            meter,
            routes,
            Egress(meter, uid, python) if confine else None,
            frozenset(u.key for u in upstreams.values() if u.key),
            frozenset(u.placeholder for u in upstreams.values()),
        )

    def environment(self, env: Mapping[str, str]) -> dict[str, str]:
        """`env` without any model API key but the session's placeholders."""
        return {
            name: value
            for name, value in env.items()
            if value in self.placeholders
            or (name not in KEY_VARIABLES and not any(k in value for k in self.real_keys))
        }

    def wrap(self, argv: Sequence[str]) -> list[str]:
        """The agent's command line, with its egress confined to the meter where possible."""
        return self.egress.wrap(list(argv)) if self.egress is not None else list(argv)

    def finish(
        self, reported: Tokens, model_free: bool, notes: list[str], drain_s: float = DRAIN_S
    ) -> tuple[Tokens, dict[str, Any]]:
        """Stop the meter (draining answers still arriving); the session's tokens and the
        record's `egress_enforced` and `meter` entries."""
        self.meter.stop(drain_s)
        enforced = self.egress is not None and self.egress.enforced
        if self.egress is not None:
            self.egress.close()
            if not enforced:
                notes.append(f"egress was not confined to the meter: {self.egress.reason}")
        meter = self.meter
        if meter.partial:
            notes.append(
                f"{meter.partial} request(s) were still under way when the meter stopped; "
                "counted from what the API had sent"
            )
        if meter.unmetered:
            shown = ", ".join(sorted(set(meter.unmetered))[:UNMETERED_SHOWN])
            notes.append(
                f"the meter refused {len(meter.unmetered)} request(s) to endpoints whose tokens "
                f"it cannot count: {shown}"
            )
        usage = settle_tokens(
            meter.usage, bool(self.routes) or model_free, reported, notes, meter.unreadable
        )
        counted: dict[str, Any] = {
            "apis": sorted(self.routes),
            "answers": meter.answers,
            "partial_answers": meter.partial,
            "refused_requests": meter.refused,
            "unmetered_requests": len(meter.unmetered),
            "unreadable_answers": meter.unreadable,
        }
        elsewhere = {
            name: upstream.base_url
            for name, upstream in meter.upstreams.items()
            if name in self.routes
            and upstream.base_url.rstrip("/") != upstream.api.default_upstream.rstrip("/")
        }
        if elsewhere:  # its counts are that address's (specsnap.scorecard.scoring)
            counted["upstreams"] = elsewhere
        record = {"egress_enforced": enforced, "meter": counted}
        return usage, record


def settle_tokens(
    metered: Tokens | None,
    metering_applies: bool,
    reported: Tokens,
    notes: list[str],
    unreadable: int = 0,
) -> Tokens:
    """The session's tokens: the meter's where it stood between the agent and every model it
    could use (no answer through it is zero), else what the agent reported.

    A billed answer whose usage the meter could not read makes them unknown, never zero; so
    does usage the agent reported while no answer passed the meter (it reached a model some
    other way)."""
    if not metering_applies:
        return reported
    if unreadable:
        notes.append(
            f"the meter could not read the usage of {unreadable} model answer(s); "
            "the session's tokens are unknown"
        )
        return Tokens.unknown()
    if metered is not None:
        if reported.source == "reported" and reported.counts() != metered.counts():
            notes.append("the agent reported other token counts than the meter measured")
        return metered
    if reported.source == "reported" and any(reported.counts()):
        notes.append("the agent reported tokens, but no model answer passed SpecSnap's meter")
        return Tokens.unknown()
    return Tokens(source="metered")
