"""What the agent hears: the seeded sprint, the session-1 prompt, the continuation prompt."""

from __future__ import annotations

import random
from typing import Any

from specsnap.tier.draws import values_for
from specsnap.tier.model import Requirement, Tier
from specsnap.tier.params import render

CONTINUATION_PROMPT = (
    "Continue from the current workspace state, complete all remaining requirements across the "
    "packages, verify all tests pass, and commit your work."
)

#: Stage II tells the agent once, in session 1, where the sprint is kept (specsnap.stage2.tracker).
TRACKER_NOTICE = (
    "This team files its sprint in a ticket tracker you can query from the repository: "
    "`tickets list` lists the sprint's tickets, `tickets show ID` shows one in full."
)


def sprint_order(tier: Tier, seed: int) -> list[Requirement]:
    """The requirements in the order this seed lists them (ids never change, only the order)."""
    order = list(tier.requirements)
    random.Random(f"{tier.id}:{seed}:sprint").shuffle(order)
    return order


def render_sprint(tier: Tier, seed: int) -> str:
    """The sprint as the agent reads it: title, preamble and numbered requirements, with the
    values the seed drew."""
    values = values_for(tier, seed)
    parts = [f"## {tier.sprint_title}", "", _render(tier.sprint_preamble, values), ""]
    for number, req in enumerate(sprint_order(tier, seed), start=1):
        title = _render(req.title, values)
        parts += [f"### {number}. {title} ({req.id})", "", _render(req.text, values), ""]
    return "\n".join(parts).rstrip() + "\n"


def session_prompt(tier: Tier, seed: int, index: int, stage: int = 1) -> str:
    """The exact prompt of session `index` (1-based); Stage II's session 1 also names the
    ticket tracker. Continuation prompts are the same in both stages."""
    values = values_for(tier, seed)
    if index == 1:
        prompt = _render(tier.session1_prompt, values)
        if tier.cutoff_arm != "baseline_commit":  # else the sprint arrives as the product note
            prompt = prompt.replace("{sprint}", render_sprint(tier, seed))
        if stage == 2:
            prompt = prompt.rstrip("\n") + "\n\n" + TRACKER_NOTICE + "\n"
        return prompt
    amendment = tier.amendment_for(index)
    if amendment is None:
        return CONTINUATION_PROMPT
    return f"{CONTINUATION_PROMPT}\n\n{_render(amendment.text, values)}\n"


def product_note(tier: Tier, seed: int) -> str | None:
    """Tier 1's mid-session product note, delivered after the baseline commit; else None."""
    if tier.product_note is None:
        return None
    note = _render(tier.product_note, values_for(tier, seed))
    return note.replace("{sprint}", render_sprint(tier, seed))


def _render(text: str, values: dict[str, Any]) -> str:
    return render(text, values)
