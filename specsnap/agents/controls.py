"""The benchmark's own controls: agents that need no model, played from the reference solution.

They make the protocol visible: `notetaker` keeps the sprint in a notes file and should score
100%; `amnesiac` keeps nothing and should lose everything but the edit it was cut off in; `recall`
skips session 1 and then writes the reference solution of *another* seed, as a model that
memorised the public tiers would, and should fail every seeded requirement; `noop` does nothing.
`tracker` is a notetaker that, in Stage II, checks its notes against the ticket tracker and
repairs a teammate's regression at its cause: it should recover what Stage II perturbs.
Option `contract=original` makes an agent follow the original sprint and ignore amendments
(tier 4's proof that amendments bite); `habits=read-every-ticket,revert-teammates` adds the
cheap Stage II habits that its scores must not reward (control_agent.py).

Handoff: `amnesiac` keeps nothing in the repository, but like a CLI it keeps its conversation in
a store in its HOME (`.specsnap-control/<id>.json`, control_agent.py). Under `--handoff resume`
it resumes that conversation (the sprint it heard) and finishes every requirement, so its score
is what a harness's full memory gives; under `compact` it first compacts the conversation to the
requirements' headings (their details dropped), then does the same from that summary. These are
model-free, deterministic handoffs: official scorecards of every mode, for the ledger's tracks.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from specsnap.accounts.identity import anyone, python_for
from specsnap.agents.base import HandoffSupport, Invocation, SessionContext
from specsnap.scorecard.model import Tokens

SCRIPT = "control_agent.py"

#: The control's conversation store: one JSON file per session, named by its id.
CONTROL_HANDOFF = HandoffSupport(
    modes=("resume", "compact"),
    state_paths=(".specsnap-control",),
    session_file=r"\.specsnap-control/([0-9a-f]{16})\.json",
)


@dataclass(frozen=True)
class ControlAgent:
    name: str
    passthrough_env: tuple[str, ...] = ()
    needs_solution: bool = True
    uses_model: bool = False  # so SpecSnap's meter, with nothing routed, counts their zero
    web_tools: str = "disabled"  # they have none
    handoff: HandoffSupport | None = None  # amnesiac: its conversation store (module docstring)

    def invocation(self, ctx: SessionContext) -> Invocation:
        script = ctx.home / SCRIPT
        with resources.as_file(resources.files("specsnap.agents").joinpath(SCRIPT)) as source:
            shutil.copyfile(source, script)
        argv = [python_for(anyone()), "-I", "-S", str(script), self.name]
        argv += [str(ctx.prompt_file), str(ctx.control_dir or ctx.home)]
        if ctx.options.get("contract") == "original":
            argv += ["--contract", "original"]
        if ctx.options.get("habits"):
            argv += ["--habits", ctx.options["habits"]]
        if ctx.resume_id is not None:
            argv += ["--resume", ctx.resume_id]
            argv += ["--compact"] if ctx.handoff == "compact" else []
        return Invocation(argv=tuple(argv))

    def usage(self, ctx: SessionContext, stdout: Path, stderr: Path) -> Tokens:
        # A control uses no model: zero tokens, as the meter also counts them.
        return Tokens(source="reported")


def notetaker() -> ControlAgent:
    return ControlAgent("notetaker")


def amnesiac() -> ControlAgent:
    return ControlAgent("amnesiac", handoff=CONTROL_HANDOFF)


def recall() -> ControlAgent:
    return ControlAgent("recall")


def tracker() -> ControlAgent:
    return ControlAgent("tracker")


def noop() -> ControlAgent:
    return ControlAgent("noop")


__all__ = ["ControlAgent"]
