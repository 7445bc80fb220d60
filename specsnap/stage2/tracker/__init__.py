"""The recovery channel of Stage II: a ticket tracker holding the sprint, which the agent may
query from its sandbox with the `tickets` command while SpecSnap logs every answer it serves.

- `tickets`: what the tracker holds for a session (the seed's rendered sprint, and tier 4's
  amendments once announced), and its answers to `list` and `show ID` (pure);
- `server`: the Unix socket a session's supervisor serves it on, the `tickets` client put on
  the agent's PATH, and the log of what was served.
"""

from specsnap.stage2.tracker.server import TrackerServer
from specsnap.stage2.tracker.tickets import Board, Ticket, answer, board_for

__all__ = ["Board", "Ticket", "TrackerServer", "answer", "board_for"]
