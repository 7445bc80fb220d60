"""The `/specsnap` comment command, parsed (pure).

    /specsnap run tier=2 seed=7     evaluate the pull request's head commit on tier-2, seed 7
    /specsnap run tier=tier-3       seed defaults to 1
    /specsnap help                  reply with this usage

The command must start a line of the comment; quoted lines (`> ...`) and fenced code blocks are
ignored, so quoting someone's command never re-runs it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from specsnap.errors import UsageError
from specsnap.render.markup import code
from specsnap.rundir import DEFAULT_SEED
from specsnap.scorecard.model import HANDOFF_MODES

DEFAULT_PREFIX = "/specsnap"
MAX_SEED = 2**31 - 1
USAGE = (
    "`/specsnap run tier=2 seed=7` (tier 1-4 or tier-N; seed a whole number, default 1; "
    "`handoff=resume` or `compact` for the agent's own resume or compaction, default fresh)"
)


class CommandError(UsageError):
    """The comment addresses SpecSnap but the command is malformed; the message says how, in
    Markdown, with the commenter's words in code spans (so a reply can quote it safely)."""


@dataclass(frozen=True)
class RunCommand:
    tier: str
    seed: int
    handoff: str = "fresh"  # how sessions after the cutoff continue (docs/protocol.md)


@dataclass(frozen=True)
class HelpCommand:
    pass


Command = RunCommand | HelpCommand


def parse_command(body: str, prefix: str = DEFAULT_PREFIX) -> Command | None:
    """The command in comment `body`; None when it has none; CommandError when it is malformed."""
    line = _command_line(body, prefix)
    if line is None:
        return None
    words = line.split()[1:]
    if not words:
        raise CommandError(f"`{prefix}` needs a command; usage: {USAGE}")
    verb, args = words[0].lower(), words[1:]
    if verb == "help":
        return HelpCommand()
    if verb != "run":
        raise CommandError(f"unknown command {code(verb)}; known: `run`, `help`. Usage: {USAGE}")
    return _run_command(args)


def _command_line(body: str, prefix: str) -> str | None:
    fenced = False
    for raw in body.splitlines():
        line = raw.strip()
        if line.startswith(("```", "~~~")):
            fenced = not fenced
            continue
        if fenced or line.startswith(">"):
            continue
        first = line.split(maxsplit=1)[0] if line else ""
        if first.lower() == prefix.lower():
            return line
    return None


def _run_command(args: list[str]) -> RunCommand:
    values: dict[str, str] = {}
    problems: list[str] = []
    for arg in args:
        key, sep, value = arg.partition("=")
        key = key.lower()
        if not sep or not value:
            problems.append(f"{code(arg)} is not key=value")
        elif key not in ("tier", "seed", "handoff"):
            problems.append(f"unknown option {code(key)} (known: tier, seed, handoff)")
        elif key in values:
            problems.append(f"{code(key)} is given twice")
        else:
            values[key] = value
    tier = values.get("tier")
    if tier is None:
        problems.append("`tier` is missing")
    elif not re.fullmatch(r"(tier-)?[1-9][0-9]?", tier.lower()):
        problems.append(f"tier {code(tier)} is not a tier number (1-4) or tier-N")
    seed_text = values.get("seed", str(DEFAULT_SEED))
    if not re.fullmatch(r"[0-9]{1,10}", seed_text) or int(seed_text) > MAX_SEED:
        problems.append(f"seed {code(seed_text)} is not a whole number from 0 to {MAX_SEED}")
    handoff = values.get("handoff", "fresh").lower()
    if handoff not in HANDOFF_MODES:
        problems.append(f"handoff {code(handoff)} is not one of {', '.join(HANDOFF_MODES)}")
    if problems:
        raise CommandError("; ".join(problems) + f". Usage: {USAGE}")
    assert tier is not None
    number = tier.lower().removeprefix("tier-")
    return RunCommand(tier=f"tier-{number}", seed=int(seed_text), handoff=handoff)
