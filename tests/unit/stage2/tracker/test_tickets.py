"""The tracker's board and answers: the seed's sprint, amendments once announced (pure)."""

from __future__ import annotations

from specsnap.stage2.tracker import answer, board_for
from specsnap.tier.draws import values_for
from specsnap.tier.loading import load_tier
from specsnap.tier.model import Tier
from specsnap.tier.prompts import render_sprint
from tests.conftest import ROOT


def test_the_list_is_the_seeds_sprint_in_its_order(tier90: Tier) -> None:
    board = board_for(tier90, 3, session=2, announced=True)
    reply = answer(board, "list")
    assert (reply.code, reply.ticket) == (0, None)
    sprint = render_sprint(tier90, 3)
    order = [line.split("(")[-1].rstrip(")") for line in sprint.splitlines() if "### " in line]
    listed = [line.split()[0] for line in reply.text.splitlines() if "-" in line.split(" ")[0]]
    assert listed == order
    assert "Sprint 1 — imperial units" in reply.text


def test_show_gives_the_rendered_ticket_with_the_seeds_values(tier90: Tier) -> None:
    board = board_for(tier90, 3, session=2, announced=True)
    reply = answer(board, "show rep-1")
    assert (reply.code, reply.ticket) == (0, "REP-1")
    assert reply.text.startswith("REP-1 · Heavy items in kilograms\npackage: report\n")
    heavy = values_for(tier90, 3)["heavy_from"]
    assert f"weights of {heavy} g and more in kg" in reply.text and "${" not in reply.text


def test_unknown_tickets_and_bad_usage_are_answered_not_fatal(tier90: Tier) -> None:
    board = board_for(tier90, 3, session=2, announced=True)
    unknown = answer(board, "show NOPE-9")
    assert unknown.code == 1 and "UNIT-1" in unknown.text and unknown.ticket is None
    bad = answer(board, "delete UNIT-1")
    assert bad.code == 2 and bad.text.startswith("usage: tickets list")
    assert answer(board, "help").code == 0
    assert answer(board, "").code == 0  # no words: the list


def test_nothing_is_on_the_board_before_the_sprint_is_announced(tier90: Tier) -> None:
    board = board_for(tier90, 3, session=1, announced=False)
    assert board.tickets == ()
    assert "No tickets are filed for this sprint yet." in answer(board, "list").text
    assert answer(board, "show UNIT-1").code == 1


def test_an_amendment_is_on_its_tickets_from_the_session_it_is_announced_in() -> None:
    tier = load_tier(str(ROOT / "tiers" / "tier-4"))
    first = tier.amendments[0]
    amended = first.amends[0]
    before = answer(
        board_for(tier, 1, session=first.session - 1, announced=True), f"show {amended}"
    )
    after = answer(board_for(tier, 1, session=first.session, announced=True), f"show {amended}")
    assert "Amendment" not in before.text
    assert f"Amendment (announced in session {first.session}):" in after.text
    listing = answer(board_for(tier, 1, session=first.session, announced=True), "list").text
    assert f"(amended in session {first.session})" in listing


def test_what_an_answer_told_the_agent_is_every_ticket_it_showed_or_listed(tier90: Tier) -> None:
    board = board_for(tier90, 3, session=2, announced=True)
    every = tuple(t.id for t in board.tickets)
    assert answer(board, "list").read == every == ("UNIT-1", "REP-1")
    assert answer(board, "show rep-1").read == ("REP-1",)
    for nothing in ("show NOPE-9", "help", "delete UNIT-1"):
        assert answer(board, nothing).read == ()
    unannounced = board_for(tier90, 3, session=1, announced=False)
    assert answer(unannounced, "list").read == ()
