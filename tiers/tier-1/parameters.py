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
    message = str(values["min_tickets_message"])
    return {
        # EVT-1: Schedule.postpone -> EventStatus.POSTPONED = "postponed", and so on.
        "postponed_status": past.upper(),
        "postponed_value": past,
        # EVT-2: the most seats of 48 that still count as low, and exactly the percentage of 40.
        "low_of_48": 48 * percent // 100,
        "not_low_of_48": 48 * percent // 100 + 1,
        "low_of_40": 40 * percent // 100,
        # PRC-2: the message for code GROUP4 with min_tickets=4, and its general form.
        "min_tickets_message_example": message.format(code="GROUP4", count=4),
        "min_tickets_message_form": message.format(code="<CODE>", count="<N>"),
    }
