"""Every renderer against golden files, and agent-controlled text proven inert. Regenerate with:

SPECSNAP_REGENERATE=1 .venv/bin/pytest tests/unit/render/test_golden.py
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from specsnap.bot import replies
from specsnap.bot.command import CommandError, RunCommand, parse_command
from specsnap.render.badge import badge_for, endpoint_json, render_svg
from specsnap.render.checks import CheckRunOutput, render_check_run
from specsnap.render.comment import NotEvaluated, RenderContext, render_comment, render_summary
from specsnap.render.markdown import render_markdown
from specsnap.render.terminal import render_session
from specsnap.render.terminal import render_summary as render_terminal
from specsnap.schemas import load_schema
from specsnap.scorecard.delta import Delta, compare, find_snapshots, snapshot_of
from specsnap.scorecard.io import load_scorecard
from specsnap.scorecard.model import Scorecard
from tests.support.markdown import assert_inert
from tests.support.scorecards import (
    HOSTILE_MOVE_FILE,
    HOSTILE_TEXT,
    fixture_card,
    hostile,
    hostile_work,
    recovered,
    with_work,
)

GOLDEN = Path(__file__).resolve().parents[2] / "fixtures" / "golden"
RUN_URL = "https://github.example/octo/agent/actions/runs/9"
CONTEXT = RenderContext(run_url=RUN_URL, commit="f" * 40, base_ref="main")

CARDS: dict[str, Callable[[], Scorecard]] = {
    "engine": lambda: load_scorecard(GOLDEN / "scorecard.json"),
    "gate-broken": lambda: fixture_card("tier-2-seed-7"),
    "passed": lambda: fixture_card("tier-1-seed-3"),
    "four-sessions": lambda: fixture_card("tier-4-seed-1"),
    "hostile": lambda: fixture_card("tier-2-seed-7", hostile),
    "stage-2": lambda: fixture_card("tier-2-seed-5-stage2"),
    "stage-2-recovered": lambda: fixture_card("tier-2-seed-5-stage2", recovered),
    "work": lambda: fixture_card("tier-1-seed-3", with_work),
}


def matches_golden(name: str, rendered: str) -> None:
    path = GOLDEN / name
    if os.environ.get("SPECSNAP_REGENERATE"):
        path.write_text(rendered, encoding="utf-8")
    assert rendered == path.read_text(encoding="utf-8"), f"{name} differs from its golden file"


def check_run_text(output: CheckRunOutput) -> str:
    """Everything a check run shows, as one reviewable file (the text is scorecard.md)."""
    annotations = json.dumps([a.as_api() for a in output.annotations], indent=2, ensure_ascii=False)
    return (
        f"name: {output.name}\nconclusion: {output.conclusion}\ntitle: {output.title}\n"
        f"omitted annotations: {output.omitted_annotations}\n\n--- summary\n{output.summary}\n\n"
        f"--- annotations\n{annotations}\n"
    )


@pytest.mark.parametrize("name", CARDS)
def test_scorecard_md(name: str) -> None:
    matches_golden(f"scorecard-{name}.md", render_markdown(CARDS[name]()))


@pytest.mark.parametrize("name", CARDS)
def test_terminal_summary_and_session_lines(name: str) -> None:
    card = CARDS[name]()
    sessions = "\n".join(render_session(s) for s in card.sessions)
    matches_golden(f"terminal-{name}.txt", f"{render_terminal(card)}\n---\n{sessions}\n")


@pytest.mark.parametrize("name", CARDS)
def test_check_run(name: str) -> None:
    card = CARDS[name]()
    output = render_check_run(card, None, CONTEXT, f"SpecSnap ({card.label})", "failure")
    assert output.text == render_markdown(card)
    matches_golden(f"check-run-{name}.txt", check_run_text(output))


def test_comment_of_several_runs_with_a_base() -> None:
    cards = [CARDS[name]() for name in ("gate-broken", "passed", "four-sessions")]
    base = fixture_card("tier-2-seed-7-base")
    deltas = {cards[0].key: compare(cards[0], snapshot_of(base, "0a1b2c3d4e5f"))}
    matches_golden("comment-runs.md", render_comment(cards, deltas, CONTEXT, "default"))
    matches_golden("job-summary-runs.md", render_summary(cards, deltas, CONTEXT))


def test_a_run_without_its_api_key_is_not_evaluated_rather_than_failed() -> None:
    skipped = (NotEvaluated("tier-2", 8, "claude-code", "no API key (a fork's pull request)"),)
    context = RenderContext(RUN_URL, "f" * 40, "main", None, skipped)
    alongside = render_comment([CARDS["passed"]()], {}, context, "default")
    alone = render_comment([], {}, context, "default")
    matches_golden("comment-not-evaluated.md", f"{alongside}\n\n---\n\n{alone}\n")
    assert "| tier-2, seed 8 | — | — | — | — | ⚪ not evaluated: no API key" in alone
    assert "**⚪ no run was evaluated** on `ffffffffffff`" in alone
    assert "0.0%" not in alone and "not passed" not in alone
    assert "**✅ 1 of 1 run(s) passed, 1 not evaluated**" in alongside


def reseeded(seed: int, net: float) -> Callable[[dict[str, Any]], None]:
    def edit(document: dict[str, Any]) -> None:
        document["seed"] = document["receipt"]["seed"] = seed
        document["scores"].update(raw_retention=net, net_retention=net, tes=net)
        document["gate"].update(holds=True, baseline_ok=True, protected_ok=True, wiring_ok=True)
        for key in ("baseline_failures", "protected_changes", "wiring_violations"):
            document["gate"][key] = []

    return edit


@pytest.mark.parametrize(
    ("name", "now", "before"),
    [
        ("seeds-beyond-noise", (0.75, 0.875, 0.75, 1.0), (0.5, 0.625, 0.625, 0.75)),
        ("seeds-within-noise", (0.75, 0.5, 0.625, 0.875), (0.5, 0.75, 0.625, 0.75)),
        ("seeds-too-few", (0.75, 0.875), (0.5, 0.625)),
    ],
)
def test_comment_of_several_seeds_says_whether_a_change_is_noise(
    name: str, now: tuple[float, ...], before: tuple[float, ...]
) -> None:
    cards = [fixture_card("tier-2-seed-7", reseeded(s, n)) for s, n in enumerate(now, 1)]
    deltas: dict[str, Delta | None] = {
        card.key: compare(card, snapshot_of(fixture_card("tier-2-seed-7", reseeded(s, b)), "ab"))
        for s, (card, b) in enumerate(zip(cards, before, strict=True), 1)
    }
    body = render_comment(cards, deltas, CONTEXT, "default")
    matches_golden(f"comment-{name}.md", body)
    assert_inert(body, links=(RUN_URL,), comments=1, details=len(cards))


def test_the_hostile_card_renders_inertly_everywhere() -> None:
    card = CARDS["hostile"]()
    comment = render_comment([card], {}, CONTEXT, "default")
    matches_golden("comment-hostile.md", comment)
    assert_inert(comment, links=(RUN_URL,), comments=1, details=1)
    assert_inert(render_markdown(card))
    assert_inert(render_summary([card], {}, CONTEXT), links=(RUN_URL,), details=1)
    output = render_check_run(card, None, CONTEXT, "SpecSnap", "failure")
    assert_inert(output.summary, links=(RUN_URL,), comments=1)  # the score snapshot
    assert find_snapshots(output.summary) == [snapshot_of(card)]  # the note's fake one is inert
    for annotation in output.annotations:
        shown = annotation.title + annotation.message
        assert not re.search(r"@[A-Za-z0-9]|https?://|<!--", shown), shown


def test_how_the_work_went_is_in_the_comment_beside_the_sessions() -> None:
    card = CARDS["work"]()
    comment = render_comment([card], {}, CONTEXT, "default")
    assert "- session 1: 14 turns; actions 6 read, 1 edit, 5 shell, 2 search; " in comment
    assert "- broad rewrite: `units/convert.py` (session unknown, a1b2c3d4e5f6)" in comment
    assert (
        "- agent's tests: 6 tests in 2 files test 2 of 6 requirements (`EVT-1`, `PRC-1`)" in comment
    )
    said = "- maintainability: 212 source lines added (the reference solution adds 180); "
    assert said in comment
    output = render_check_run(card, None, CONTEXT, "SpecSnap", "success")
    notices = [(a.path, a.line, a.title) for a in output.annotations if a.level == "notice"]
    assert notices == [
        ("tests/test_visible.py", 1, "Risky move: test skipped"),
        ("units/convert.py", 1, "Risky move: broad rewrite"),
    ]


def test_hostile_text_in_how_the_work_went_renders_inertly_everywhere() -> None:
    card = fixture_card("tier-1-seed-3", hostile_work)
    assert card.work is not None and card.work.risky_moves[1].file == HOSTILE_MOVE_FILE
    comment = render_comment([card], {}, CONTEXT, "default")
    assert f"`{HOSTILE_MOVE_FILE}`" in comment  # shown, as a code span
    assert_inert(comment, links=(RUN_URL,), comments=1, details=1)
    assert_inert(render_markdown(card))
    assert_inert(render_summary([card], {}, CONTEXT), links=(RUN_URL,), details=1)
    output = render_check_run(card, None, CONTEXT, "SpecSnap", "success")
    assert_inert(output.summary, links=(RUN_URL,), comments=1)
    for annotation in output.annotations:
        shown = annotation.title + annotation.message
        assert not re.search(r"@[A-Za-z0-9]|https?://|<!--", shown), shown
    assert "\x1b" not in render_terminal(fixture_card("tier-1-seed-3", _escape_in_work))


def _escape_in_work(document: dict[str, Any]) -> None:
    with_work(document)
    document["work"]["risky_moves"][0]["command"] = "rm -rf x \x1b[2J"


def test_a_stage_ii_run_says_its_channel_beside_its_scores() -> None:
    card = CARDS["stage-2"]()
    body = render_comment([card], {}, CONTEXT, "default")
    matches_golden("comment-stage-2.md", body)
    assert "| tier-2, seed 5, Stage II (retained without recovery) | 0.0% |" in body
    assert "**Stage II**: retained without recovery" in body
    assert "| 2 | stale note | the agent's notes now say" in body


def test_badges() -> None:
    one = badge_for([CARDS["passed"]()])
    several = badge_for([CARDS[name]() for name in ("passed", "gate-broken", "four-sessions")])
    for name, badge in (("one", one), ("several", several)):
        matches_golden(f"badge-{name}.json", json.dumps(endpoint_json(badge), indent=2) + "\n")
        matches_golden(f"badge-{name}.svg", render_svg(badge) + "\n")


def bot_problem(body: str) -> str:
    with pytest.raises(CommandError) as caught:
        parse_command(body)
    return str(caught.value)


def test_bot_replies() -> None:
    command = RunCommand("tier-2", 7)
    evil = "/specsnap run tier=`<b>@someone</b>` seed=[x](http://evil.example)"
    said = {
        "started": replies.started("dev", command, "d" * 40, RUN_URL),
        "started without a run link": replies.started("dev", command, "d" * 40, None),
        "started with a run link that is not a plain URL": replies.started(
            "dev", command, "d" * 40, "javascript:alert(1)) [x](http://evil.example"
        ),
        "refused": replies.refused("reader", "read"),
        "refused an odd login": replies.refused("someone <b>[x](http://evil.example)", "none"),
        "invalid": replies.invalid("dev", bot_problem("/specsnap run tier=banana")),
        "invalid, hostile": replies.invalid("dev", bot_problem(evil)),
        "usage": replies.usage("dev"),
        "not a pull request": replies.not_a_pull_request("dev"),
        "head moved after the command": replies.head_moved("dev", "e" * 40),
        **review_replies(),
    }
    matches_golden("bot-replies.md", "".join(f"## {k}\n\n{v}\n\n" for k, v in said.items()))
    for reply in said.values():  # the commenter is mentioned on purpose, nobody else
        assert_inert(
            reply.replace("@dev ", "dev ")
            .replace("@reader!", "reader!")
            .replace("@reader ", "reader "),
            links=(RUN_URL,),
        )


def review_replies() -> dict[str, str]:
    """The review replies, hostile reasons included: the reasons are the reviewers' text."""
    from specsnap.review.rubric import KEYS
    from specsnap.review.rules import Score, Submission, review_of
    from specsnap.reviewdesk.desk import standing

    def rating(who: str, score: int, reason: str) -> Submission:
        return Submission(who, "rating", {k: Score(score, reason) for k in KEYS})

    one = review_of([rating("dev", 2, "fine")])
    two = review_of([*one.submissions, rating("reader", 5, HOSTILE_TEXT)])
    evil = '/specsnap review q1=9 "x" <b>@someone</b>=3 "[x](http://evil.example)"'
    return {
        "review refused": replies.review_refused("reader", "read"),
        "no run to review": replies.no_run_to_review("dev", 12),
        "review, hostile command": replies.invalid("dev", bot_problem(evil)),
        "rating refused": replies.rating_refused("dev", "dev has rated already <b>@x</b>"),
        "rating recorded, hidden": replies.rating_recorded(
            "dev", "rating", standing(one), "c" * 64
        ),
        "rating recorded, both rated": replies.rating_recorded(
            "reader", "rating", standing(two), "d" * 64
        ),
    }


def hostile_everywhere(document: dict[str, Any]) -> None:
    """Every string of a scorecard that the schema lets anyone choose, made hostile: a forged
    scorecard (a fork's artifact) controls all of them, not only what an agent writes."""
    validator = jsonschema.Draft202012Validator(load_schema("scorecard"))
    document["agent"]["options"] = {f"{HOSTILE_TEXT} \x1b[2J": HOSTILE_TEXT}

    def visit(value: Any) -> None:
        items = value.items() if isinstance(value, dict) else enumerate(value)
        for key, item in list(items):
            if isinstance(item, dict | list):
                visit(item)
            elif isinstance(item, str):
                value[key] = f"{item} {HOSTILE_TEXT} \x1b[2J"
                if any(True for _ in validator.iter_errors(document)):
                    value[key] = item  # an enum or a digest: the schema refuses other values

    visit(document)


def work_then_hostile_everywhere(document: dict[str, Any]) -> None:
    with_work(document)
    hostile_everywhere(document)


@pytest.mark.parametrize(
    "fixture", ["tier-2-seed-7", "tier-4-seed-1", "tier-2-seed-5-stage2", "tier-2-seed-7+work"]
)
def test_a_forged_scorecard_with_hostile_text_in_every_free_string_renders_inertly(
    fixture: str,
) -> None:
    name, _, work = fixture.partition("+")
    card = fixture_card(name, work_then_hostile_everywhere if work else hostile_everywhere)
    assert HOSTILE_TEXT in card.tier_id and HOSTILE_TEXT in card.requirements[0].tests[0].id
    comment = render_comment([card], {}, CONTEXT, "default")
    assert_inert(comment, links=(RUN_URL,), comments=1, details=1)
    assert_inert(render_markdown(card))
    assert_inert(render_summary([card], {}, CONTEXT), links=(RUN_URL,), details=1)
    output = render_check_run(card, None, CONTEXT, "SpecSnap", "failure")
    assert_inert(output.summary, links=(RUN_URL,), comments=1)
    assert find_snapshots(output.summary) == [snapshot_of(card)]
    assert "\x1b" not in render_terminal(card)
