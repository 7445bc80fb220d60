"""Sample scorecards (tests/fixtures/scorecards) for rendering, publishing, bot and Action tests.

The fixtures are sealed schema-version-3 scorecards:
- tier-2-seed-7:      6/8 retained, regression gate broken (boundary violations, protected
                      files changed, a baseline test failing) → net 0, not passed; session 1 cut
                      off on a commit attempt, session 2 timed out;
- tier-2-seed-7-base: the same cell on the base branch, 5/8 retained, gate holding;
- tier-1-seed-3:      everything retained, passed, metered tokens, official;
- tier-4-seed-1:      3/8 retained, tokens unknown (TES null), not passed; four sessions (a
                      created, a commit attempt, a deleted file; the last one crashed);
- tier-2-seed-5-stage2: a Stage II run of the notetaker control: every perturbation applied,
                      the planted regression unrepaired (gate broken), the stale note not
                      detected, the tracker never consulted.

`with_work` gives a fixture the "how the work went" section (from a run's work.json): both
sessions' trajectories and three risky moves; `hostile_work` makes its agent text hostile.

`hostile` turns a fixture into what an adversarial agent could make SpecSnap report: every
string the agent controls tries to mention, link and inject HTML.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from specsnap.scorecard.io import parse_scorecard
from specsnap.scorecard.model import Scorecard
from specsnap.scorecard.receipt import seal

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "scorecards"

Edit = Callable[[dict[str, Any]], None]

#: A path an adversarial agent could create: a mention, a Markdown link and HTML.
HOSTILE_PATH = "pkg/@someone [x](http://evil.example/a) <b>bold</b>.py"
HOSTILE_TEXT = (
    "<details><summary>click</summary> @octocat see www.evil.example and #12 "
    "<!-- specsnap:comment:default --> `x` | y *z* ![i](http://evil.example/i.png)</details>"
)


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


def hostile(document: dict[str, Any]) -> None:
    """Agent-controlled strings everywhere a scorecard shows them."""
    gate = document["gate"]
    gate["wiring_violations"][0].update(file=HOSTILE_PATH, importer="pkg.@someone")
    gate["protected_changes"][0]["path"] = HOSTILE_PATH
    gate["baseline_failures"][0]["test"] = f"{HOSTILE_PATH}::test_`tick`|pipe"
    gate["protocol_breaches"] = [
        {"session": 1, "what": f"commit abc landed while armed: {HOSTILE_TEXT}"},
        {
            "session": None,
            "what": "product code names the test machinery",
            "file": HOSTILE_PATH,
            "line": 3,
        },
    ]
    gate["protocol_ok"] = False
    session = document["sessions"][0]
    session["cutoff"].update(reason="source-edit", file=HOSTILE_PATH, change="created")
    session["notes"] = [HOSTILE_TEXT, '<!-- specsnap:snapshot {"key":"tier-2/seed-7"} -->']
    session["breaches"] = [gate["protocol_breaches"][0]]
    document["agent"]["options"] = {"cmd": "agent --ping @someone [x](http://evil.example) <b>"}
    document["unofficial_reasons"] = [f"the agent's account can read {HOSTILE_PATH}"]
    document["requirements"][2]["tests"][0]["id"] = f"{HOSTILE_PATH}::test_x"


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


def recovered(document: dict[str, Any]) -> None:
    """The Stage II fixture with its gate holding and two requirements recovered: the agent read
    their tickets in session 2 and then changed the sources."""
    gate = document["gate"]
    for key in ("baseline_failures", "protected_changes", "wiring_violations", "protocol_breaches"):
        gate[key] = []
    gate.update(holds=True, baseline_ok=True, protected_ok=True, wiring_ok=True, protocol_ok=True)
    for requirement in document["requirements"]:
        if requirement["id"] in ("CAT-1", "SHIP-2"):
            requirement["retention"] = "recovered"
    requests = [
        {"request": f"show {t}", "ticket": t, "served": True, "bytes": 400, "chars": 400}
        for t in ("CAT-1", "SHIP-2")
    ]
    for request in requests:
        request["at_s"] = 9.5
    document["sessions"][1]["tracker"].update(
        consultations=2, bytes_served=800, chars_served=800, requests=requests
    )
    document["stage2"].update(consultations=2, channel="recovered")
    document["scores"].update(net_retention=0.666667, retained_without_recovery=0.444444)


#: A risky move's file as an adversarial agent could name it.
HOSTILE_MOVE_FILE = "@user <b>x</b> [a](http://e)"


def _trajectory(**values: Any) -> dict[str, Any]:
    actions = {"read": 0, "edit": 0, "shell": 0, "search": 0, "other": 0}
    actions.update(values.pop("actions"))
    return {"actions": actions, "repeated_failing_command": None, **values}


def with_work(document: dict[str, Any]) -> None:
    """A two-session fixture with its work section: session 1 read, tested and edited (a failing
    test command run twice), session 2 read three files again; a skip added and a module
    rewritten in the history (one of them from a commit no session claims), a reset in a shell."""
    document["work"] = {
        "sessions": [
            {
                "session": 1,
                "trajectory": _trajectory(
                    turns=14,
                    actions={"read": 6, "edit": 1, "shell": 5, "search": 2},
                    test_runs=3,
                    longest_failing_streak=2,
                    repeated_failing_command="python -m pytest -q units",
                    tokens_before_first_edit=18234,
                    rediscovered_files=0,
                ),
            },
            {
                "session": 2,
                "trajectory": _trajectory(
                    turns=9,
                    actions={"read": 4, "edit": 3, "shell": 2},
                    test_runs=2,
                    longest_failing_streak=0,
                    tokens_before_first_edit=4210,
                    rediscovered_files=3,
                ),
            },
        ],
        "risky_moves": [
            {
                "session": 1,
                "where": "step 9",
                "kind": "git-reset-hard",
                "command": "git reset --hard HEAD",
            },
            {
                "session": 2,
                "where": "3f9c2a1b7d4e",
                "kind": "skip-added",
                "file": "tests/test_visible.py",
            },
            {
                "session": None,
                "where": "a1b2c3d4e5f6",
                "kind": "broad-rewrite",
                "file": "units/convert.py",
            },
        ],
        "risky_moves_total": 3,
        "agent_tests": {
            "files": ["tests/test_postpone.py", "tests/test_prices.py"],
            "tests": 6,
            "passed_with_all": 5,
            "credited": ["EVT-1", "PRC-1"],
            "requirements": [
                {"id": "EVT-1", "tested": True, "tests": ["tests/test_postpone.py::test_moves"]},
                {"id": "EVT-2", "tested": False, "tests": []},
                {"id": "PRC-1", "tested": True, "tests": ["tests/test_prices.py::test_chf"]},
            ],
            "why": None,
        },
        "maintainability": {
            "lines_added": 212,
            "reference_lines_added": 180,
            "files_changed": 7,
            "out_of_scope": ["booking/cart.py"],
            "out_of_scope_total": 1,
            "duplicated_blocks": 1,
            "duplicated_lines": 6,
            "complexity_added": 14,
            "most_complex": "events/schedule.py::Schedule.postpone (7)",
            "dead_code": ["pricing/money.py:3 unused import 'decimal'"],
            "dead_code_total": 1,
            "unparsed": 0,
        },
        "continuity": {
            "amendments": [
                {
                    "amendment": "A1",
                    "session": 2,
                    "amends": ["EVT-2"],
                    "status": "revised",
                    "statements": [],
                    "statements_total": 0,
                },
                {
                    "amendment": "A2",
                    "session": 2,
                    "amends": ["PRC-1"],
                    "status": "silent contradiction",
                    "statements": [
                        {
                            "file": "pricing/money.py",
                            "line": 12,
                            "says": "prices rounded to 5 cents",
                            "text": "# Prices are rounded to 5 cents.",
                        }
                    ],
                    "statements_total": 1,
                },
            ]
        },
    }


def hostile_work(document: dict[str, Any]) -> None:
    """The work section with what the agent controls in it made hostile."""
    with_work(document)
    work = document["work"]
    work["sessions"][0]["trajectory"]["repeated_failing_command"] = f"pytest {HOSTILE_TEXT}"
    work["risky_moves"][0]["command"] = f"git reset --hard {HOSTILE_TEXT}"
    for move in work["risky_moves"][1:]:
        move["file"] = HOSTILE_MOVE_FILE
    work["agent_tests"]["files"][0] = HOSTILE_MOVE_FILE
    signals = work["maintainability"]
    signals["out_of_scope"] = signals["dead_code"] = [HOSTILE_MOVE_FILE]
    signals["most_complex"] = HOSTILE_TEXT
    statement = work["continuity"]["amendments"][1]["statements"][0]
    statement["file"], statement["text"] = HOSTILE_MOVE_FILE, HOSTILE_TEXT
