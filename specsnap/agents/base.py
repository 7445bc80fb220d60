"""The agent adapter contract and the registry every adapter, built-in or third-party, goes through.

An adapter turns a session (sandbox, prompt, fresh HOME) into a command line, and afterwards reads
the session's token usage from what the agent printed or wrote. The session runner owns everything
else: process group, environment scrubbing, time limit, cutoff, token meter, records.

Besides the protocol's members, an adapter may declare (read with `adapter_traits`):
- `apis`: the model APIs it talks to (names of `specsnap.metering.apis.APIS`; the option
  `--agent-opt apis=…` overrides them). SpecSnap's meter
  stands in for each; the adapter finds the meter's URL and the session's placeholder key in
  `SessionContext.routes` and tells its CLI about them (an environment variable, a flag).
- `web_tools`: "disabled" when the adapter turns the CLI's web fetch/search tools off, else
  "not-disableable" (the default: SpecSnap cannot tell).
- `uses_model`: False for SpecSnap's own model-free controls.
- `handoff`: a `HandoffSupport` when the CLI can continue its own cut-off session (`--handoff
  resume|compact`, docs/protocol.md); without one an adapter supports `fresh` only.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from importlib.metadata import entry_points
from pathlib import Path
from typing import Protocol

from specsnap.errors import UsageError
from specsnap.scorecard.model import HANDOFF_MODES, TOKEN_SOURCES, Tokens

__all__ = [
    "HANDOFF_MODES",
    "TOKEN_SOURCES",
    "WEB_TOOLS",
    "AdapterTraits",
    "AgentAdapter",
    "ApiRoute",
    "HandoffSupport",
    "Invocation",
    "SessionContext",
    "Tokens",
    "adapter_traits",
    "get_agent",
    "known_agents",
    "register_agent",
    "require_handoff",
    "use_agent_environment",
]


WEB_TOOLS = ("disabled", "not-disableable")


@dataclass(frozen=True)
class HandoffSupport:
    """How an adapter's CLI continues its cut-off session. SpecSnap copies only `state_paths`
    (relative to HOME) of the cut-off session's HOME into the next fresh one, and reads the
    session's id from the name of one file there: the HOME-relative path that fully matches
    `session_file`, whose first group is the id (nothing is read from inside the agent-written
    store). The adapter's invocation then sees `SessionContext.handoff` and `resume_id`."""

    modes: tuple[str, ...]  # besides `fresh`, which every adapter supports
    state_paths: tuple[str, ...]
    session_file: str  # a regular expression over HOME-relative POSIX paths


@dataclass(frozen=True)
class ApiRoute:
    """How the agent reaches one model API in a metered session: through SpecSnap's meter, with
    a per-session placeholder key (the meter swaps in the real one on the way upstream)."""

    base_url: str  # the meter's URL standing for the API's base URL
    key_env: str  # the variable the caller's key was in; the agent gets the placeholder there
    key: str  # the placeholder


@dataclass(frozen=True)
class AdapterTraits:
    """The optional declarations of an adapter (see the module docstring)."""

    apis: tuple[str, ...]
    web_tools: str
    uses_model: bool
    handoff: HandoffSupport | None = None

    @property
    def handoff_modes(self) -> tuple[str, ...]:
        """Every handoff mode the adapter supports, `fresh` first."""
        return ("fresh", *(self.handoff.modes if self.handoff is not None else ()))


def adapter_traits(adapter: object, options: Mapping[str, str] | None = None) -> AdapterTraits:
    """What `adapter` declares about its APIs, web tools and model, with the defaults.
    `--agent-opt apis=a,b` names the model APIs instead (e.g. for the `command` adapter)."""
    web_tools = getattr(adapter, "web_tools", "not-disableable")
    chosen = (options or {}).get("apis")
    apis = [a.strip() for a in chosen.split(",")] if chosen else getattr(adapter, "apis", ())
    return AdapterTraits(
        tuple(a for a in apis if a),
        web_tools if web_tools in WEB_TOOLS else "not-disableable",
        bool(getattr(adapter, "uses_model", True)),
        _handoff_support(getattr(adapter, "handoff", None)),
    )


def _handoff_support(declared: object) -> HandoffSupport | None:
    """The adapter's declaration when it is one; anything else declares nothing."""
    return declared if isinstance(declared, HandoffSupport) else None


def require_handoff(adapter: object, mode: str) -> None:
    """Refuse, before any work, a handoff mode that is unknown or that `adapter` cannot do:
    never a silent fresh session instead."""
    if mode not in HANDOFF_MODES:
        raise UsageError(f"unknown handoff mode {mode!r}; known: {', '.join(HANDOFF_MODES)}")
    supported = adapter_traits(adapter).handoff_modes
    if mode not in supported:
        name = getattr(adapter, "name", "the agent")
        raise UsageError(
            f"{name} does not support --handoff {mode}; it supports {', '.join(supported)} "
            "(docs/agents.md)"
        )


#: The system's directories on every agent's PATH, after the agent's own.
BASE_PATH = "/usr/local/bin:/usr/bin:/bin"


@dataclass(frozen=True)
class SessionContext:
    """What an adapter may know about the session it is asked to start."""

    index: int  # 1-based session number
    sandbox: Path  # the agent's working directory (the git repository)
    home: Path  # a fresh, empty HOME for this session
    prompt: str  # the exact prompt text
    prompt_file: Path  # the same text in a file the agent may read (outside the sandbox)
    usage_file: Path  # where an agent may write its own usage JSON ($SPECSNAP_USAGE_FILE)
    options: Mapping[str, str] = field(default_factory=dict)  # --agent-opt KEY=VALUE pairs
    control_dir: Path | None = None  # built-in control agents only: reference solution copy
    routes: Mapping[str, ApiRoute] = field(default_factory=dict)  # API name → the meter's route
    handoff: str = "fresh"  # the run's handoff mode (HANDOFF_MODES); session 1 is always fresh
    resume_id: str | None = None  # resume/compact: the cut-off session's id in the CLI's store
    path: str = BASE_PATH  # the session's PATH, where its CLI is found


@dataclass(frozen=True)
class Invocation:
    """How to start the agent: argv, the environment it declares, and optional stdin bytes."""

    argv: tuple[str, ...]
    env: Mapping[str, str] = field(default_factory=dict)
    stdin: bytes | None = None


class AgentAdapter(Protocol):
    """One kind of agent. Implementations are small and stateless."""

    @property
    def name(self) -> str:
        """The name the adapter is registered under."""
        ...

    @property
    def passthrough_env(self) -> tuple[str, ...]:
        """Environment variables passed through from the caller's environment when set."""
        ...

    def invocation(self, ctx: SessionContext) -> Invocation:
        """The command that runs one headless session of this agent."""
        ...

    def usage(self, ctx: SessionContext, stdout: Path, stderr: Path) -> Tokens:
        """Token usage of the finished (or cut-off) session; `unknown` when it cannot be read."""
        ...


AdapterFactory = Callable[[], AgentAdapter]
_REGISTRY: dict[str, AdapterFactory] = {}


class AgentEnvironment(Protocol):
    """Adapters registered in another Python environment (the agent's own, installed from its
    repository), served out of process: their code never runs in SpecSnap's process."""

    def adapter_names(self) -> list[str]: ...

    def adapter(self, name: str) -> AgentAdapter: ...


_ENVIRONMENT: AgentEnvironment | None = None


def use_agent_environment(environment: AgentEnvironment | None) -> None:
    """Also offer the adapters of `environment` (None: stop offering them). Names registered in
    SpecSnap's own environment win."""
    global _ENVIRONMENT
    _ENVIRONMENT = environment


def register_agent(name: str) -> Callable[[AdapterFactory], AdapterFactory]:
    """Class decorator: make an adapter available by `name` in this process (for adapters a
    program defines itself; installed packages, SpecSnap's built-ins included, declare
    `specsnap.agents` entry points instead)."""

    def decorate(factory: AdapterFactory) -> AdapterFactory:
        _REGISTRY[name] = factory
        return factory

    return decorate


def _load_entry_points() -> None:
    """Adapters declared as `specsnap.agents` entry points, SpecSnap's own (the built-ins) first,
    so a third-party package can add names but never take a built-in's."""
    declared = sorted(
        entry_points(group="specsnap.agents"),
        key=lambda ep: ep.dist is None or ep.dist.name != "specsnap",
    )
    for ep in declared:
        if ep.name not in _REGISTRY:
            _REGISTRY[ep.name] = ep.load()


def known_agents() -> list[str]:
    """Every registered adapter name (the agent environment's included), sorted."""
    _load_entry_points()
    others = _ENVIRONMENT.adapter_names() if _ENVIRONMENT is not None else []
    return sorted({*_REGISTRY, *others})


def get_agent(name: str) -> AgentAdapter:
    """The adapter registered as `name`; an unknown name lists the known ones."""
    known = known_agents()
    if name in _REGISTRY:
        return _REGISTRY[name]()
    if _ENVIRONMENT is not None and name in known:
        return _ENVIRONMENT.adapter(name)
    raise UsageError(f"unknown agent {name!r}; known agents: {', '.join(known)}")
