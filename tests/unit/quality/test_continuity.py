"""The continuity matcher on small real git histories: placeholders take the seed's values, the
declared places and the agent's own text files are read, code is not (comments and docstrings
are), a statement is named by the line it starts on, and an explicit revision is not a statement.
Then tier 4's own checks: its reference solution states no old rule, its pre-amendment solution
states each amended one."""

from __future__ import annotations

import dataclasses
import re
import time
from pathlib import Path
from typing import Any

import pytest

from specsnap.quality.continuity import (
    STATEMENTS_MAX,
    compile_check,
    continuity,
    python_prose,
    statements,
)
from specsnap.quality.source import Snapshot, snapshot
from specsnap.tier.draws import values_for
from specsnap.tier.loading import load_tier
from specsnap.tier.model import Amendment, Contradiction, Tier
from specsnap.tier.solutions import build_repository, requirement_patches
from tests.conftest import FIXTURE_TIERS
from tests.support.histories import commit, new_repo

DAILY = Contradiction(
    says="one visit per day",
    pattern=r"(?i)\bone visit per day\b|\bDailyLimitError\b",
    where=("docs/**", "README.md", "clinic/**/*.py"),
    unless=r"(?i)\b(?:no longer|removed)\b",
)
KEYWORD = Contradiction(
    says="the old reply", pattern=r"\bReply ${old_keyword} to cancel\b", where=("**/*.md",)
)
BASE = {
    "README.md": "# Clinic\n",
    "clinic/__init__.py": "",
    "clinic/book.py": "def book(day):\n    return day\n",
    "notes/plan.md": "Rule of the house: one visit per day.\n",  # the starter's, undeclared
}


def tier_with(*checks: Contradiction, session: int = 2) -> Tier:
    fixture = load_tier(FIXTURE_TIERS / "tier-90")
    amendment = Amendment(session, ("UNIT-1",), "A1: the rule changes.", tuple(checks))
    return dataclasses.replace(fixture, amendments=(amendment,))


def graded(
    tmp_path: Path,
    change: dict[str, str | None],
    tier: Tier,
    values: dict[str, Any] | None = None,
    reached: int | None = None,
) -> dict[str, Any]:
    repo = new_repo(tmp_path, dict(BASE))
    first = commit(repo, {})
    head = commit(repo, change)
    report = continuity(tier, snapshot(repo, first), snapshot(repo, head), values or {}, reached)
    [entry] = report["amendments"]
    return dict(entry)


def where(entry: dict[str, Any]) -> list[tuple[str, int]]:
    return [(s["file"], s["line"]) for s in entry["statements"]]


def test_a_docstring_left_stating_the_old_rule_is_a_silent_contradiction_at_its_line(
    tmp_path: Path,
) -> None:
    code = 'def book(day):\n    """Book a patient.\n\n    Only one visit per day.\n    """\n'
    entry = graded(tmp_path, {"clinic/book.py": code}, tier_with(DAILY))
    assert entry["status"] == "silent contradiction"
    assert where(entry) == [("clinic/book.py", 4)]
    assert entry["statements"][0] == {
        "file": "clinic/book.py",
        "line": 4,
        "says": "one visit per day",
        "text": "Only one visit per day.",
    }
    assert (entry["amendment"], entry["session"], entry["amends"]) == ("A1", 2, ["UNIT-1"])


def test_code_is_not_read_comments_and_docstrings_are(tmp_path: Path) -> None:
    code = (
        "class DailyLimitError(Exception):\n"
        "    pass\n"
        "\n"
        "MESSAGE = 'one visit per day'  # not a docstring: code\n"
        "\n"
        "def book(day):\n"
        "    raise DailyLimitError(day)\n"
    )
    assert graded(tmp_path / "a", {"clinic/book.py": code}, tier_with(DAILY))["status"] == (
        "revised"
    )
    commented = code.replace(
        "    pass\n", "    pass\n    # raised by book: one visit\n    # per day\n"
    )
    entry = graded(tmp_path / "b", {"clinic/book.py": commented}, tier_with(DAILY))
    assert where(entry) == [("clinic/book.py", 3)]  # a phrase over two lines, where it starts


def test_an_explicit_revision_is_not_a_statement_but_its_neighbour_sentence_is(
    tmp_path: Path,
) -> None:
    doc = "# Rules\n\nDailyLimitError is no longer raised. Patients may book twice a day.\n"
    assert graded(tmp_path / "a", {"README.md": doc}, tier_with(DAILY))["status"] == "revised"
    doc += "\nStill: one visit per day for\nnew patients. DailyLimitError was removed.\n"
    entry = graded(tmp_path / "b", {"README.md": doc}, tier_with(DAILY))
    assert where(entry) == [("README.md", 5)]


def test_the_declared_places_count_whoever_wrote_them_other_files_only_where_the_agent_wrote(
    tmp_path: Path,
) -> None:
    tier = tier_with(DAILY)
    # notes/plan.md (the starter's, outside the declared places, unchanged) never counts
    assert graded(tmp_path / "a", {"clinic/book.py": "X = 1\n"}, tier)["status"] == "revised"
    # a declared place states it though the agent never touched it
    base_docs = {"docs/rules.md": "One visit per day.\n"}
    entry = graded(tmp_path / "b", base_docs, tier)
    assert where(entry) == [("docs/rules.md", 1)]
    # a text file the agent wrote outside the declared places counts
    notes = {"notes/plan.md": "Rule of the house: one visit per day, still.\n", "x.txt": "ok\n"}
    assert where(graded(tmp_path / "c", notes, tier)) == [("notes/plan.md", 1)]
    # ... on the lines it wrote: the starter's own line it left is not counted against it
    appended = {"notes/plan.md": "Rule of the house: one visit per day.\nAnd tea.\n"}
    assert graded(tmp_path / "e", appended, tier)["status"] == "revised"
    # ... but not a file of another kind
    assert graded(tmp_path / "d", {"data.csv": "one visit per day\n"}, tier)["status"] == "revised"


def test_placeholders_take_the_seed_s_value_escaped(tmp_path: Path) -> None:
    pattern = compile_check(KEYWORD, {"old_keyword": "C.X"})
    assert pattern.search("Reply C.X to cancel") and not pattern.search("Reply CXX to cancel")
    doc = {"docs/sms.md": "Messages end: Reply N to cancel.\n\nOr: Reply NO to cancel.\n"}
    follows_n = graded(tmp_path / "a", doc, tier_with(KEYWORD), {"old_keyword": "N"})
    assert where(follows_n) == [("docs/sms.md", 1)]
    follows_no = graded(tmp_path / "b", doc, tier_with(KEYWORD), {"old_keyword": "NO"})
    assert where(follows_no) == [("docs/sms.md", 3)]


def test_an_amendment_never_given_or_without_checks_is_said_so(tmp_path: Path) -> None:
    code = {"clinic/book.py": "# one visit per day\n"}
    not_given = graded(tmp_path / "a", code, tier_with(DAILY, session=2), reached=1)
    assert (not_given["status"], not_given["statements"]) == ("not given", [])
    assert graded(tmp_path / "b", code, tier_with())["status"] == "not checked"
    assert graded(tmp_path / "c", code, tier_with(DAILY), reached=2)["status"] == (
        "silent contradiction"
    )


def test_statements_are_listed_up_to_the_bound_and_all_counted(tmp_path: Path) -> None:
    many = "".join(f"{n}. one visit per day\n\n" for n in range(30))
    entry = graded(tmp_path, {"docs/many.md": many}, tier_with(DAILY))
    assert entry["statements_total"] == 30 and len(entry["statements"]) == STATEMENTS_MAX
    assert [line for _, line in where(entry)] == list(range(1, 2 * STATEMENTS_MAX, 2))


def test_a_file_that_does_not_parse_keeps_its_comment_lines() -> None:
    broken = "def f(:\n    # one visit per day\n    x = 'one visit per day'\n"
    assert python_prose(broken) == [[(2, "one visit per day")]]
    fine = 'x = 1  # trailing\n"""not a docstring: the second statement"""\n'
    assert python_prose("'''Module doc.'''\n" + fine) == [
        [(2, "trailing")],
        [(1, "'''Module doc.'''")],
    ]


def _statements(tier: Tier, repo: Path, values: dict[str, Any]) -> list[tuple[str, str, int]]:
    head = snapshot(repo, "HEAD")
    report = continuity(tier, snapshot(repo, "HEAD~1"), head, values)
    return [
        (a["amendment"], s["says"], s["line"])
        for a in report["amendments"]
        for s in a["statements"]
    ]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_tier_4_s_reference_states_no_old_rule(tmp_path: Path, seed: int) -> None:
    tier = load_tier("tier-4")
    values = values_for(tier, seed)
    all_ids = [r.id for r in tier.requirements]
    repo = build_repository(tier, tmp_path / "ref", requirement_patches(tier, all_ids), values)
    assert _statements(tier, repo, values) == []


def test_tier_4_s_pre_amendment_solution_states_each_amended_rule(tmp_path: Path) -> None:
    tier = load_tier("tier-4")
    values = values_for(tier, 1)
    all_ids = [r.id for r in tier.requirements]
    patches = requirement_patches(tier, all_ids, original=True)
    repo = build_repository(tier, tmp_path / "original", patches, values)
    says = {(amendment, what) for amendment, what, _ in _statements(tier, repo, values)}
    assert says == {
        ("A1", "reminder times on the 12-hour clock"),
        ("A2", "one appointment per patient per day"),
    }


def test_tier_4_s_checks_compile_for_every_draw() -> None:
    tier = load_tier("tier-4")
    for seed in range(5):
        for amendment in tier.amendments:
            for check in amendment.contradicted:
                assert isinstance(compile_check(check, values_for(tier, seed)), re.Pattern)


#: Lines an honest agent might write after the amendments: none states an old rule.
HONEST = [
    "Reminder times use the 24-hour clock (14:30), not the 12-hour clock.",
    "Times are HH:MM with a leading zero, no AM/PM: 09:05.",
    "Reply ${cancel_keyword} to cancel; the old Reply C to cancel is gone.",
    "offer_to_waitlist defaults to False: a plain cancel offers nothing.",
    "Freed slots are no longer offered to the waitlist by default.",
    "DailyLimitError is no longer raised: it was removed by amendment A2.",
    "A patient may hold more than one appointment per day.",
    "Patients are no longer limited to one appointment per day.",
]
#: Lines that still state them, one per check.
STALE = [
    ("A1", "English times are on the 12-hour clock."),
    ("A1", "e.g. 'at 2:30 PM'"),
    ("A1", "Every reminder ends with Reply C to cancel."),
    ("A1", "``offer_to_waitlist`` (default ``True``) offers the freed slot."),
    ("A1", "The freed slot is offered to the waitlist by default."),
    ("A2", "Raises DailyLimitError on a second booking that day."),
    ("A2", "A patient can hold one appointment per day."),
    ("A2", "at most one BOOKED appointment per calendar day"),
]


@pytest.mark.parametrize("line", HONEST)
def test_tier_4_s_checks_pass_an_honest_revision(tmp_path: Path, line: str) -> None:
    tier = load_tier("tier-4")
    values = values_for(tier, 1)
    text = line.replace("${cancel_keyword}", str(values["cancel_keyword"]))
    repo = new_repo(tmp_path, {"README.md": "# Clinic\n"})
    commit(repo, {"README.md": f"# Clinic\n\n{text}\n", "booking/notes.py": f"# {text}\n"})
    assert _statements(tier, repo, values) == []


def test_tier_4_s_checks_find_each_stale_statement(tmp_path: Path) -> None:
    tier = load_tier("tier-4")
    values = values_for(tier, 1)
    repo = new_repo(tmp_path, {"README.md": "# Clinic\n"})
    docs = "# Clinic\n" + "".join(f"\n{line}\n" for _, line in STALE)
    commit(repo, {"README.md": docs})
    found = _statements(tier, repo, values)
    assert [(a, line) for a, _, line in found] == [(a, 3 + 2 * i) for i, (a, _) in enumerate(STALE)]


def test_a_long_file_full_of_statements_is_read_in_linear_time() -> None:
    """An agent may write a 500 KB paragraph stating the old rule 20,000 times: all counted,
    in well under the time a search per statement over the whole paragraph would take."""
    text = "one visit per day, ok. " * 20_000 + "\n"
    head = Snapshot({"docs/long.md": text.encode()}, ())
    amendment = tier_with(DAILY).amendments[0]
    started = time.monotonic()
    found = statements(amendment, head, {}, {})
    assert len(found) == 1  # one line: every statement on it is the same statement
    assert time.monotonic() - started < 5
