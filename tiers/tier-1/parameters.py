"""Values derived from a seed's draw for tier 1: worked examples and spellings in the sprint.

The engine calls `derive(values)` with the drawn values; the sprint text, the reference patches
and the hidden tests (through `params`) read the result.
"""

from __future__ import annotations

from typing import Any


def derive(values: dict[str, Any]) -> dict[str, Any]:
    """Spellings and worked examples that follow from the drawn values."""
    verb = str(values["postpone_verb"])
    past = verb + ("d" if verb.endswith("e") else "ed")
    percent = int(values["low_percent"])
    return {
        # EVT-1: Schedule.postpone -> EventStatus.POSTPONED = "postponed", and so on.
        "postponed_status": past.upper(),
        "postponed_value": past,
        # EVT-2: the most seats of 48 that still count as low, and the fewest that do not.
        "low_of_48": 48 * percent // 100,
        "not_low_of_48": 48 * percent // 100 + 1,
        # PRC-2, PRC-3, BKG-1, BKG-2, BKG-3: each drawn message in its general form and with
        # the worked example the sprint shows.
        **_message(values, "min_tickets_message", dict(code="GROUP4", count=4)),
        **_message(values, "per_customer_message", dict(code="FANS10", limit=2)),
        **_message(values, "extension_refused_message", dict(hold_id="H0001")),
        **_message(values, "ticket_limit_message", dict(limit=6, already=5, requested=2)),
        **_message(values, "too_few_positions_message", dict(available=1, section="STL")),
    }


def _message(values: dict[str, Any], name: str, example: dict[str, Any]) -> dict[str, str]:
    """`<name>_form` (each field as `<FIELD>`) and `<name>_example` (filled with `example`)."""
    message = str(values[name])
    return {
        f"{name}_form": message.format(**{key: f"<{key.upper()}>" for key in example}),
        f"{name}_example": message.format(**example),
    }
