"""Sample scorecards (tests/fixtures/scorecards) for the publishing, bot and Action tests.

The fixtures are sealed engine scorecards (they validate against specsnap's scorecard schema):
- tier-2-seed-7:      6/8 retained, regression gate broken (boundary violations, protected
                      files changed, a baseline test failing) → net 0, not passed;
- tier-2-seed-7-base: the same cell on the base branch, 5/8 retained, gate holding;
- tier-1-seed-3:      everything retained, passed, metered tokens, official;
- tier-4-seed-1:      3/8 retained, tokens unknown (TES null), not passed.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from specsnap.publish.scorecard import Scorecard, parse_scorecard
from specsnap.receipt import seal

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "scorecards"

Edit = Callable[[dict[str, Any]], None]


def fixture_document(name: str, edit: Edit | None = None) -> dict[str, Any]:
    """The fixture's JSON; `edit(document)` may change it, and it is then sealed again."""
    document: dict[str, Any] = json.loads((FIXTURES / f"{name}.json").read_text())
    if edit is not None:
        document = copy.deepcopy(document)
        edit(document)
        document["receipt"].pop("scorecard_sha256", None)
        document = seal(document)
    return document


def fixture_card(name: str, edit: Edit | None = None) -> Scorecard:
    return parse_scorecard(fixture_document(name, edit), f"{name}.json")


def write_fixture(directory: Path, name: str, edit: Edit | None = None) -> Path:
    """Write the fixture as `directory/scorecard.json` (as the engine lays out a run)."""
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / "scorecard.json"
    path.write_text(json.dumps(fixture_document(name, edit), indent=2), encoding="utf-8")
    return path


def many_violations(count: int) -> Edit:
    """An edit that gives the card `count` boundary violations (for size-limit tests)."""

    def edit(document: dict[str, Any]) -> None:
        document["gate"]["wiring_ok"] = False
        document["gate"]["holds"] = False
        document["scores"].update(net_retention=0.0, tes=0.0, **{"pass": False})
        document["gate"]["wiring_violations"] = [
            {
                "importer": f"shipping.module_{i}",
                "imported": "orders.ledger",
                "file": f"shipping/module_{i}.py",
                "line": i + 1,
                "rule": "orders.ledger is private to orders " + "(long explanation) " * 8,
                "kind": "static",
            }
            for i in range(count)
        ]

    return edit
