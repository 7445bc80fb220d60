"""The `/specsnap` comment command, parsed (pure).

    /specsnap run tier=2 seed=7     evaluate the pull request's head commit on tier-2, seed 7
    /specsnap run tier=tier-3       seed defaults to 1
    /specsnap review                post the pull request's run's review packet
    /specsnap review q1=4 "reason" q2=5 "reason" q3=3 "reason" q4=4 "reason" q5=4 "reason"
                                    rate every question of the rubric (specsnap.review.ratings)
    /specsnap review agreed q3=3 "reason"
                                    an agreed rating, where the two reviewers are apart
    /specsnap help                  reply with this usage

The command must start a line of the comment; quoted lines (`> ...`) and fenced code blocks are
ignored, so quoting someone's command never re-runs it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from specsnap.errors import UsageError
from specsnap.render.markup import code
from specsnap.review.ratings import SYNTAX as REVIEW_SYNTAX
from specsnap.review.ratings import RatingsError, parse_words
from specsnap.review.rules import Kind, Score
from specsnap.rundir import DEFAULT_SEED
from specsnap.scorecard.model import HANDOFF_MODES

DEFAULT_PREFIX = "/specsnap"
MAX_SEED = 2**31 - 1
USAGE = (
    "`/specsnap run tier=2 seed=7` (tier 1-4 or tier-N; seed a whole number, default 1; "
    "`handoff=resume` or `compact` for the agent's own resume or compaction, default fresh); "
    f"reviews: {REVIEW_SYNTAX}"
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


@dataclass(frozen=True)
class ReviewCommand:
    """`/specsnap review`: with no scores, post the review packet; else record a rating."""

    kind: Kind = "rating"
    scores: Mapping[str, Score] = field(default_factory=dict)

    @property
    def asks_packet(self) -> bool:
        return not self.scores


Command = RunCommand | HelpCommand | ReviewCommand


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
    if verb == "review":
        return _review_command(line.split(maxsplit=2)[2] if len(words) > 1 else "")
    if verb != "run":
        known = "known: `run`, `review`, `help`"
        raise CommandError(f"unknown command {code(verb)}; {known}. Usage: {USAGE}")
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


def _review_command(words: str) -> ReviewCommand:
    if not words.strip():
        return ReviewCommand()
    try:
        kind, scores = parse_words(words)
    except RatingsError as exc:
        raise CommandError(str(exc)) from None
    if not scores:
        raise CommandError(f"`agreed` needs the agreed ratings. Usage: {REVIEW_SYNTAX}")
    return ReviewCommand(kind, scores)
