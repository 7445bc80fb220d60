from __future__ import annotations

import pytest

from specsnap.bot.command import (
    CommandError,
    HelpCommand,
    ReviewCommand,
    RunCommand,
    parse_command,
)
from specsnap.review.rules import Score


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ("/specsnap run tier=2 seed=7", RunCommand("tier-2", 7)),
        ("/specsnap run tier=tier-3", RunCommand("tier-3", 1)),
        ("  /SpecSnap RUN seed=0 TIER=4  ", RunCommand("tier-4", 0)),
        ("Looks good!\n\n/specsnap run tier=1 seed=42\nthanks", RunCommand("tier-1", 42)),
        ("/specsnap help", HelpCommand()),
        ("/specsnap run tier=2 handoff=Resume", RunCommand("tier-2", 1, "resume")),
    ],
)
def test_commands_are_read(body: str, expected: object) -> None:
    assert parse_command(body) == expected


@pytest.mark.parametrize(
    "body",
    [
        "",
        "LGTM",
        "please run /specsnap run tier=2 later",  # not at the start of a line
        "> /specsnap run tier=2 seed=7",  # a quote of someone else's command
        "```\n/specsnap run tier=2\n```",  # a code block
        "/specsnapper run tier=2",
    ],
)
def test_comments_without_a_command_are_not_for_us(body: str) -> None:
    assert parse_command(body) is None


@pytest.mark.parametrize(
    ("body", "says"),
    [
        ("/specsnap", "needs a command"),
        ("/specsnap start tier=2", "unknown command `start`"),
        ("/specsnap run", "`tier` is missing"),
        ("/specsnap run tier=9000", "not a tier number"),
        ("/specsnap run tier=2 seed=-1", "seed `-1`"),
        ("/specsnap run tier=2 seed=99999999999", "seed `99999999999`"),
        ("/specsnap run tier=2 tier=3", "`tier` is given twice"),
        ("/specsnap run tier=2 agent=x", "unknown option `agent`"),
        ("/specsnap run 2", "`2` is not key=value"),
        (
            "/specsnap run tier=2 handoff=rewind",
            "handoff `rewind` is not one of fresh, resume, compact",
        ),
    ],
)
def test_malformed_commands_say_what_is_wrong_and_how_to_write_them(body: str, says: str) -> None:
    with pytest.raises(CommandError) as caught:
        parse_command(body)
    assert says in str(caught.value)
    assert "/specsnap run tier=2 seed=7" in str(caught.value)
    assert caught.value.exit_code == 2


def test_every_problem_is_listed_at_once() -> None:
    with pytest.raises(CommandError) as caught:
        parse_command("/specsnap run tier=x seed=y color=red")
    message = str(caught.value)
    assert "tier `x`" in message and "seed `y`" in message and "`color`" in message


def test_a_custom_prefix() -> None:
    assert parse_command("/eval run tier=2", prefix="/eval") == RunCommand("tier-2", 1)
    assert parse_command("/specsnap run tier=2", prefix="/eval") is None


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ("/specsnap review", ReviewCommand()),
        ("LGTM\n/specsnap Review  ", ReviewCommand()),
        (
            '/specsnap review q1=4 "no copy" q2=5 "scoped"',
            ReviewCommand("rating", {"q1": Score(4, "no copy"), "q2": Score(5, "scoped")}),
        ),
        (
            '/specsnap review agreed q4=3 "we agree"',
            ReviewCommand("agreed", {"q4": Score(3, "we agree")}),
        ),
    ],
)
def test_review_commands_are_read(body: str, expected: ReviewCommand) -> None:
    command = parse_command(body)
    assert command == expected
    assert isinstance(command, ReviewCommand) and command.asks_packet == (not expected.scores)


@pytest.mark.parametrize(
    ("body", "why"),
    [
        ("/specsnap review q1=4", "cannot read `q1=4`"),
        ('/specsnap review q1=4 "a" q1=5 "b"', "q1 is rated twice"),
        ("/specsnap review agreed", "`agreed` needs the agreed ratings"),
        ('/specsnap review q1=4 "@all see <!-- here"', None),
    ],
)
def test_malformed_review_commands_say_why(body: str, why: str | None) -> None:
    if why is None:  # a reason is the reviewer's text: kept as written, shown inertly
        command = parse_command(body)
        assert isinstance(command, ReviewCommand)
        assert command.scores["q1"].reason == "@all see <!-- here"
        return
    with pytest.raises(CommandError, match=why) as raised:
        parse_command(body)
    assert "/specsnap review q1=4" in str(raised.value)  # the usage comes with it
