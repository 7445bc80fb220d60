"""The agent's network egress: confined to the meter where the machine allows it.

`Egress.wrap(argv)` starts the agent through `launcher.py` (see there), which puts it in its own
network namespace and hands the meter the one listening socket that leads out. The handover is
checked: it must come from the agent's account, and the socket must live in another network
namespace than SpecSnap's. Only the first handover is taken. `enforced` says, once the agent has
started, whether its egress was confined; `reason` why not.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import shutil
import socket
import struct
import tempfile
import threading
from importlib import resources
from pathlib import Path

from specsnap.metering.proxy import TokenMeter

SIOCGSKNS = 0x894C  # the network namespace a socket belongs to (Linux ≥ 4.9)
LAUNCHER = "launcher.py"


class Egress:
    """The handover point for one session's agent (its account: `uid`)."""

    def __init__(self, meter: TokenMeter, uid: int, python: str) -> None:
        self.meter = meter
        self.uid = uid
        self.python = python
        self.enforced = False
        self.reason = "the agent never reached SpecSnap's egress launcher"
        self.done = threading.Event()
        self._dir = Path(tempfile.mkdtemp(prefix="specsnap-egress-"))
        self._dir.chmod(0o711)
        self.launcher = self._dir / LAUNCHER
        with resources.as_file(resources.files("specsnap.metering").joinpath(LAUNCHER)) as src:
            shutil.copyfile(src, self.launcher)
        self.launcher.chmod(0o644)
        self.path = self._dir / "handover.sock"
        self._server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self._server.bind(str(self.path))
        self.path.chmod(0o666)
        self._server.listen(4)
        self._thread = threading.Thread(target=self._accept, daemon=True)
        self._thread.start()

    def wrap(self, argv: list[str]) -> list[str]:
        """The agent's command line, started through the launcher."""
        return [
            self.python, "-I", "-S", str(self.launcher), str(self.path), str(self.meter.port),
            "--", *argv,
        ]  # fmt: skip

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self._server.shutdown(socket.SHUT_RDWR)
        self._server.close()
        self._thread.join(timeout=5)
        shutil.rmtree(self._dir, ignore_errors=True)

    def _accept(self) -> None:
        while not self.done.is_set():
            try:
                connection, _ = self._server.accept()
            except OSError:
                return
            with connection:
                taken = self._take(connection)
                with contextlib.suppress(OSError):
                    connection.sendall(b"ok" if taken else b"no")
            if taken:
                self.done.set()

    def _take(self, connection: socket.socket) -> bool:
        credentials = connection.getsockopt(
            socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i")
        )
        _, peer_uid, _ = struct.unpack("3i", credentials)
        message, fds, _, _ = socket.recv_fds(connection, 2048, 1)
        listeners = [socket.socket(fileno=fd) for fd in fds]
        if peer_uid != self.uid:
            for listener in listeners:
                listener.close()
            return False
        if message.startswith(b"open:") and not listeners:
            self.reason = "the agent's network namespace could not be made: " + message[5:].decode(
                "utf-8", "replace"
            )
            return True
        if message != b"confined" or len(listeners) != 1 or not _elsewhere(listeners[0]):
            for listener in listeners:
                listener.close()
            return False
        self.meter.adopt(listeners[0])
        self.enforced = True
        self.reason = ""
        return True


def _elsewhere(listener: socket.socket) -> bool:
    """Whether `listener` is a TCP listening socket in another network namespace than ours."""
    try:
        if listener.type != socket.SOCK_STREAM or listener.family != socket.AF_INET:
            return False
        if not listener.getsockopt(socket.SOL_SOCKET, socket.SO_ACCEPTCONN):
            return False
        namespace = fcntl.ioctl(listener.fileno(), SIOCGSKNS)
    except OSError:
        return False
    try:
        return os.fstat(namespace).st_ino != os.stat("/proc/self/ns/net").st_ino
    finally:
        os.close(namespace)
