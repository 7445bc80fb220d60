"""What the ticket tracker holds, and its answers (pure once the board is built).

The board of a session is the sprint as the seed renders it — the same title, preamble, order
and values as the prompt — with every amendment announced up to that session under the tickets
it amends. Before the sprint is announced (tier 1's session 1, until the product note arrives)
the board is empty: the tracker never tells the agent more than the conversation has.
"""

from __future__ import annotations

from dataclasses import dataclass

from specsnap.tier.draws import values_for
from specsnap.tier.model import Tier
from specsnap.tier.params import render
from specsnap.tier.prompts import sprint_order

#: The longest request kept in the log (the agent writes requests; the scorecard shows them).
REQUEST_MAX = 200

USAGE = (
    "usage: tickets list       list the sprint's tickets\n"
    "       tickets show ID    one ticket in full (e.g. tickets show {example})\n"
)


@dataclass(frozen=True)
class Ticket:
    id: str
    title: str
    package: str
    text: str
    amendments: tuple[tuple[int, str], ...]  # (session announced, text)


@dataclass(frozen=True)
class Board:
    """The tracker's content for one session; no tickets while the sprint is unannounced."""

    title: str
    preamble: str
    tickets: tuple[Ticket, ...]

    def ticket(self, ticket_id: str) -> Ticket | None:
        wanted = ticket_id.strip().upper()
        return next((t for t in self.tickets if t.id == wanted), None)


@dataclass(frozen=True)
class Answer:
    code: int  # the client's exit code: 0 served, 1 no such ticket, 2 bad usage
    text: str
    ticket: str | None  # the ticket shown in full, if one was
    #: Every ticket the answer told the agent anything of: the one shown, or all of them
    #: listed (a title can state a drawn value). Stage II's retention reads this.
    read: tuple[str, ...] = ()


def board_for(tier: Tier, seed: int, session: int, announced: bool) -> Board:
    """The board of `session`: the seed's sprint once it is announced, with the amendments
    announced in sessions up to `session`."""
    if not announced:
        return Board(tier.sprint_title, "", ())
    values = values_for(tier, seed)
    tickets = []
    for req in sprint_order(tier, seed):
        amendments = tuple(
            (a.session, render(a.text, values))
            for a in tier.amendments
            if a.session <= session and req.id in a.amends
        )
        tickets.append(
            Ticket(
                req.id, render(req.title, values), req.package, render(req.text, values), amendments
            )
        )
    return Board(tier.sprint_title, render(tier.sprint_preamble, values), tuple(tickets))


def answer(board: Board, request: str) -> Answer:
    """The tracker's answer to one request (`list`, `show ID`, `help`)."""
    words = request.split()
    command = words[0].lower() if words else "list"
    if command == "list" and len(words) <= 1:
        return Answer(0, _listing(board), None, tuple(t.id for t in board.tickets))
    if command == "show" and len(words) == 2:
        ticket = board.ticket(words[1])
        if ticket is None:
            known = ", ".join(t.id for t in board.tickets) or "none yet"
            return Answer(1, f"tickets: no ticket {words[1]!r} (tickets: {known})\n", None)
        return Answer(0, _full(ticket), ticket.id, (ticket.id,))
    example = board.tickets[0].id if board.tickets else "ABC-1"
    return Answer(0 if command == "help" else 2, USAGE.format(example=example), None)


def _listing(board: Board) -> str:
    if not board.tickets:
        return f"{board.title}\n\nNo tickets are filed for this sprint yet.\n"
    width = max(len(t.id) for t in board.tickets)
    lines = [board.title, "", board.preamble, ""]
    for ticket in board.tickets:
        amended = ", ".join(str(session) for session, _ in ticket.amendments)
        suffix = f"  (amended in session {amended})" if amended else ""
        lines.append(f"{ticket.id:<{width}}  {ticket.title}{suffix}")
    lines += ["", "`tickets show ID` shows a ticket in full."]
    return "\n".join(lines) + "\n"


def _full(ticket: Ticket) -> str:
    lines = [f"{ticket.id} · {ticket.title}", f"package: {ticket.package}", "", ticket.text]
    for session, text in ticket.amendments:
        lines += ["", f"Amendment (announced in session {session}):", text]
    return "\n".join(lines) + "\n"
