"""Refuse network connections in-process, in a subject where no network namespace could be made.

Weaker than a namespace (graded code could undo it) and recorded as `network_isolated: false`.
Standard library only; used by both kinds of subject.
"""

from __future__ import annotations

import socket
from typing import Any


def guard_network() -> None:
    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise OSError("network access is disabled while SpecSnap grades")

    original = socket.socket.connect

    def connect(self: socket.socket, address: Any) -> Any:
        if self.family in (socket.AF_INET, socket.AF_INET6):
            return refuse()
        return original(self, address)

    socket.socket.connect = connect  # type: ignore[method-assign]
    socket.socket.connect_ex = connect  # type: ignore[method-assign,assignment]
    socket.create_connection = refuse  # type: ignore[assignment]
